"""P4Runtime v1 (the protos of p4runtime 1.4.1) for the p4sim switch.

    from p4sim.p4runtime.server import P4RuntimeServer
    server = P4RuntimeServer(switch, "127.0.0.1:9559", device_id=0)
    server.start()          # listening on return; server.port is the bound port
    server.stop()

Modules, one concept each:
  codec            canonical bytestrings, match values per kind, friendly text forms
                   (shared with the controller)
  errors           P4RuntimeError and the single TableErrorCode -> status mapping
  arbitration      primary/backup election per (device, role)
  p4info_index     P4Info lookups by ID
  pipeline_config  device-config and P4Info checks for SetForwardingPipelineConfig
  pipeline_state   ID bookkeeping of the committed pipeline
  translate        match keys, actions and priorities <-> the switch runtime API
  entities/        one module per entity kind (tables, action profiles, one-shot sets,
                   counters/meters/registers, direct resources, replication, value
                   sets, digest configs)
  dispatch         Entity -> handler routing and error translation
  controller_packets  @controller_header packet_in / packet_out packing
  digest_stream    DigestList batching and acknowledgement
  idle_timeout     IdleTimeoutNotification sweeps
  reconcile        RECONCILE_AND_COMMIT state carry-over
  wire             protobuf wire-format fast path for table-entry writes and reads
  server           the gRPC service
"""
