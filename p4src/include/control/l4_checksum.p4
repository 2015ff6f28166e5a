// Incremental (RFC 1624) update of the TCP/UDP checksum after INT headers and
// metadata were inserted or changed: only the words INT touched are summed.
#ifndef FABRIC_L4_CHECKSUM_P4
#define FABRIC_L4_CHECKSUM_P4

#include "../header.p4"

// One's-complement sum (unfolded) of the 16-bit words of the INT shim and
// INT-MD header, zero for headers that are not valid.
control IntHeaderSum(in headers_t hdr, out bit<32> sum) {
    apply {
        sum = 0;
        if (hdr.int_shim.isValid()) {
            sum = (bit<32>) (hdr.int_shim.int_type ++ hdr.int_shim.npt
                             ++ hdr.int_shim.rsvd0 ++ hdr.int_shim.len)
                + (bit<32>) (hdr.int_shim.rsvd1 ++ hdr.int_shim.dscp ++ hdr.int_shim.rsvd2);
        }
        if (hdr.int_md.isValid()) {
            sum = sum
                + (bit<32>) (hdr.int_md.ver ++ hdr.int_md.d ++ hdr.int_md.e
                             ++ hdr.int_md.m ++ hdr.int_md.rsvd[11:3])
                + (bit<32>) (hdr.int_md.rsvd[2:0] ++ hdr.int_md.hop_ml
                             ++ hdr.int_md.remaining_hop_cnt)
                + (bit<32>) hdr.int_md.instruction_mask
                + (bit<32>) hdr.int_md.domain_id
                + (bit<32>) hdr.int_md.ds_instruction
                + (bit<32>) hdr.int_md.ds_flags;
        }
    }
}

// new checksum = ~(~old + ~(INT headers before) + (INT headers after)
//                  + pushed words + length growth), folded to 16 bits.
control L4ChecksumUpdate(inout headers_t hdr,
                         in fabric_metadata_t meta,
                         in bit<32> sum_before,
                         in bit<32> sum_after) {
    apply {
        bit<32> before = (sum_before & 0xffff) + (sum_before >> 16);
        before = (before & 0xffff) + (before >> 16);
        bit<32> change = (bit<32>) (~((bit<16>) before)) + sum_after
                         + meta.l4_csum_sum + (bit<32>) meta.l4_len_delta;
        if (hdr.tcp.isValid()) {
            bit<32> sum = change + (bit<32>) (~hdr.tcp.checksum);
            sum = (sum & 0xffff) + (sum >> 16);
            sum = (sum & 0xffff) + (sum >> 16);
            hdr.tcp.checksum = ~((bit<16>) sum);
        } else if (hdr.udp.isValid() && hdr.udp.checksum != 0) {
            // The UDP length is counted twice: pseudo header and UDP header.
            bit<32> sum = change + (bit<32>) meta.l4_len_delta
                          + (bit<32>) (~hdr.udp.checksum);
            sum = (sum & 0xffff) + (sum >> 16);
            sum = (sum & 0xffff) + (sum >> 16);
            bit<16> csum = ~((bit<16>) sum);
            if (csum == 0) {
                csum = 0xffff;
            }
            hdr.udp.checksum = csum;
        }
    }
}

#endif
