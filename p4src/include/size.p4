// Table, register and header-stack capacities.
#ifndef FABRIC_SIZE_P4
#define FABRIC_SIZE_P4

#define PORT_COUNT 512
#define PARTITION_COUNT 256
#define PARTITION_MAP_SIZE 1024
#define ROUTES_SIZE 4096
#define GROUP_COUNT 1024
#define NEXT_HOPS_SIZE 1024
// (partition, protocol class) multipath overrides: five classes per partition.
#define MP_CLASS_MODES_SIZE 1280
#define SELECTOR_MEMBERS 1024
#define MEMBER_COUNTERS 4096
#define PUNT_RULES_SIZE 256
#define INT_WATCHLIST_SIZE 256
#define TRIM_CLASSES_SIZE 64
// PDS packet types (5 bits) with a feedback queue class.
#define FEEDBACK_TYPES_SIZE 32
#define CREDIT_BANDS_SIZE 256
// Values of standard_metadata.priority (3 bits): queues a port may have.
#define PRIORITY_COUNT 8

// INT metadata words a packet may carry (all hops, own hop included).
// Nine words per hop with instruction bits 0-5 and 7: four hops fit.
#define INT_STACK_WORDS 36
// Flow-and-path slots the sink remembers for report suppression.
#define REPORT_FLOW_SLOTS 4096

#endif
