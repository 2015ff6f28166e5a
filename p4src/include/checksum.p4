// Checksum verification (none) and computation of the fabric pipeline.
#ifndef FABRIC_CHECKSUM_P4
#define FABRIC_CHECKSUM_P4

#include "header.p4"

control FabricVerifyChecksum(inout headers_t hdr, inout fabric_metadata_t meta) {
    apply { }
}

control FabricComputeChecksum(inout headers_t hdr, inout fabric_metadata_t meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.dscp, hdr.ipv4.ecn,
              hdr.ipv4.total_len, hdr.ipv4.identification, hdr.ipv4.flags,
              hdr.ipv4.frag_offset, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.src_addr, hdr.ipv4.dst_addr },
            hdr.ipv4.hdr_checksum, HashAlgorithm.csum16);
        update_checksum(hdr.report_ipv4.isValid(),
            { hdr.report_ipv4.version, hdr.report_ipv4.ihl, hdr.report_ipv4.dscp,
              hdr.report_ipv4.ecn, hdr.report_ipv4.total_len,
              hdr.report_ipv4.identification, hdr.report_ipv4.flags,
              hdr.report_ipv4.frag_offset, hdr.report_ipv4.ttl,
              hdr.report_ipv4.protocol, hdr.report_ipv4.src_addr,
              hdr.report_ipv4.dst_addr },
            hdr.report_ipv4.hdr_checksum, HashAlgorithm.csum16);
        // A TCP segment whose INT was stripped by the sink: its payload is
        // all unparsed bytes again, so the full checksum can be recomputed.
        // After a domain border the next domain's new shim and INT-MD header
        // come before that payload; fields of invalid headers are left out of
        // a field list, so without them the sum is the plain segment's.
        update_checksum_with_payload(hdr.tcp.isValid() && meta.int_stripped,
            { hdr.ipv4.src_addr, hdr.ipv4.dst_addr, 8w0, hdr.ipv4.protocol,
              meta.l4_length,
              hdr.tcp.src_port, hdr.tcp.dst_port, hdr.tcp.seq_no, hdr.tcp.ack_no,
              hdr.tcp.data_offset, hdr.tcp.res, hdr.tcp.flags, hdr.tcp.window,
              hdr.tcp.urgent_ptr,
              hdr.int_shim.int_type, hdr.int_shim.npt, hdr.int_shim.rsvd0,
              hdr.int_shim.len, hdr.int_shim.rsvd1, hdr.int_shim.dscp,
              hdr.int_shim.rsvd2,
              hdr.int_md.ver, hdr.int_md.d, hdr.int_md.e, hdr.int_md.m,
              hdr.int_md.rsvd, hdr.int_md.hop_ml, hdr.int_md.remaining_hop_cnt,
              hdr.int_md.instruction_mask, hdr.int_md.domain_id,
              hdr.int_md.ds_instruction, hdr.int_md.ds_flags },
            hdr.tcp.checksum, HashAlgorithm.csum16);
    }
}

#endif
