/*
 * p4sim's core library for P4_16: the declarations every P4_16 program may use.
 * Written for p4sim; it declares the same names and signatures as the core.p4 shipped
 * with p4c, so a program compiles unchanged with either compiler.
 */
/* p4c's include guard: programs test it with #ifdef */
#ifndef _CORE_P4_
#define _CORE_P4_

/* Errors a parser can signal; more may be added by programs with their own error {...}. */
error {
    NoError,               /* no error */
    PacketTooShort,        /* not enough bits left in the packet for an extract */
    NoMatch,               /* a select expression had no matching case */
    StackOutOfBounds,      /* a header stack was accessed out of its bounds */
    HeaderTooShort,        /* a varbit extract asked for more bits than the field holds */
    ParserTimeout,         /* the parser ran out of time */
    ParserInvalidArgument  /* a parser operation got an argument it cannot handle */
}

/* Reading headers out of the packet being parsed. */
extern packet_in {
    /* Copy a fixed-size header from the packet and mark it valid. */
    void extract<T>(out T hdr);
    /* Copy a header whose one varbit field is variableFieldSizeInBits long. */
    void extract<T>(out T variableSizeHeader, in bit<32> variableFieldSizeInBits);
    /* The next bits of the packet as a T, without consuming them. */
    T lookahead<T>();
    /* Skip bits of the packet. */
    void advance(in bit<32> sizeInBits);
    /* The length of the whole packet in bytes. */
    bit<32> length();
}

/* Writing headers back into the outgoing packet. */
extern packet_out {
    /* Append hdr if it is valid (recursing into structs, stacks and unions). */
    void emit<T>(in T hdr);
}

/* Parser-only: when check is false, stop parsing with toSignal. */
extern void verify(in bool check, in error toSignal);

/* The action that does nothing; the usual default action of a table. */
@noWarn("unused")
action NoAction() {}

/* The match kinds every architecture supports. */
match_kind {
    exact,    /* bits equal */
    ternary,  /* bits equal under a mask */
    lpm       /* longest prefix match */
}

/* Compile-time assertions. */
extern bool static_assert(bool check, string message);
extern bool static_assert(bool check);

#endif  /* _CORE_P4_ */
