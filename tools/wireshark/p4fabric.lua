-- p4fabric.lua: Wireshark/tshark dissectors for the p4sim fabric's wire formats.
--
--   uec     UEC-style PDS headers on UDP 4793 (uec.pds.*)
--   int     INT-MD v2.1 over TCP/UDP, signalled by a DSCP (int.shim.*, int.md.*, int.hop.*)
--   intrep  Telemetry Report v2.0 on UDP 32766 (intrep.*), inner packet handed to Wireshark
--
-- Layouts follow wire_formats/layers.py and p4src/include/header.p4 (bit 0 = most
-- significant bit, as in the specifications). Ports and the INT DSCP are preferences.
-- Load with: wireshark -X lua_script:tools/wireshark/p4fabric.lua

-- Lua 5.2 (Wireshark <= 4.2) has bit32; Lua 5.3+ has operators that 5.2 cannot parse.
local band = (bit32 and bit32.band) or (bit and bit.band)
    or load("return function(a, b) return math.tointeger(a) & math.tointeger(b) end")()
local rshift = (bit32 and bit32.rshift) or (bit and bit.rshift)
    or load("return function(a, n) return math.tointeger(a) >> n end")()

local UEC_PORT, REPORT_PORT, INT_DSCP = 4793, 32766, 0x17

-- ------------------------------------------------------------------ value names
local PDS_TYPES = {
    [1] = "TSS", [2] = "RUD_REQ", [3] = "ROD_REQ", [4] = "RUDI_REQ", [5] = "RUDI_RESP",
    [6] = "UUD_REQ", [7] = "ACK", [8] = "ACK_CC", [9] = "ACK_CCX", [10] = "NACK",
    [11] = "CONTROL", [12] = "NACK_CCX", [13] = "RUD_CC_REQ", [14] = "ROD_CC_REQ",
}
local CTL_TYPES = {
    [0] = "NOOP", [1] = "ACK_REQ", [2] = "CLEAR_CMD", [3] = "CLEAR_REQ", [4] = "CLOSE_CMD",
    [5] = "CLOSE_REQ", [6] = "PROBE", [7] = "CREDIT", [8] = "CREDIT_REQUEST", [9] = "NEGOTIATION",
}
local CC_TYPES = { [0] = "NSCC", [1] = "CREDIT" }
local NACK_CODES = { [1] = "TRIMMED", [2] = "TRIMMED_LASTHOP", [3] = "TRIMMED_ACK" }
local INT_TYPES = { [1] = "INT-MD", [2] = "INT-Destination", [3] = "INT-MX" }
local NPT_NAMES = { [0] = "Original DSCP in shim", [1] = "Original UDP payload follows",
                    [2] = "Original L4 header follows" }
local REP_TYPES = { [0] = "Inner only", [1] = "INT", [2] = "IOAM" }
local IN_TYPES = { [0] = "None", [1] = "TLV", [2] = "Domain specific extension",
                   [3] = "Ethernet", [4] = "IPv4", [5] = "IPv6" }

-- Per-hop metadata by bitmap bit (INT v2.1 §4.7; RepMdBits bits 1-8 are the same).
-- Each entry: bit, short name (for bitmap fields and summaries), words, sub-fields
-- {key, label, bytes within the item}.
local MD_ITEMS = {
    { bit = 0, name = "node_id", label = "Node ID", words = 1,
      parts = { { "node_id", "Node ID", 4, base.DEC_HEX } } },
    { bit = 1, name = "l1_ports", label = "Level 1 ingress/egress port IDs", words = 1,
      parts = { { "ingress_port", "Ingress port", 2 }, { "egress_port", "Egress port", 2 } } },
    { bit = 2, name = "hop_latency", label = "Hop latency", words = 1,
      parts = { { "hop_latency", "Hop latency", 4 } } },
    { bit = 3, name = "queue", label = "Queue ID and occupancy", words = 1,
      parts = { { "queue_id", "Queue ID", 1 }, { "queue_occupancy", "Queue occupancy", 3 } } },
    { bit = 4, name = "ingress_ts", label = "Ingress timestamp", words = 2,
      parts = { { "ingress_ts", "Ingress timestamp", 8 } } },
    { bit = 5, name = "egress_ts", label = "Egress timestamp", words = 2,
      parts = { { "egress_ts", "Egress timestamp", 8 } } },
    { bit = 6, name = "l2_ports", label = "Level 2 ingress/egress interface IDs", words = 2,
      parts = { { "l2_ingress_port", "L2 ingress interface", 4 },
                { "l2_egress_port", "L2 egress interface", 4 } } },
    { bit = 7, name = "tx_util", label = "Egress port Tx utilization", words = 1,
      parts = { { "tx_util", "Tx utilization", 4 } } },
    { bit = 8, name = "buffer", label = "Buffer ID and occupancy", words = 1,
      parts = { { "buffer_id", "Buffer ID", 1 }, { "buffer_occupancy", "Buffer occupancy", 3 } } },
}
-- RepMdBits bit 15: queue ID (8b), drop reason (8b), padding (16b).
local REPORT_DROP_ITEM = { bit = 15, name = "drop_reason", label = "Queue ID and drop reason", words = 1,
    parts = { { "queue_id", "Queue ID", 1 }, { "drop_reason", "Drop reason", 1 }, { "drop_pad", "Padding", 2 } } }

local function mask_of(bitno) return rshift(0x8000, bitno) end

local function uint_field(abbr, label, bytes, base_)
    local ctor = ({ [1] = ProtoField.uint8, [2] = ProtoField.uint16, [3] = ProtoField.uint24,
                    [4] = ProtoField.uint32, [8] = ProtoField.uint64 })[bytes]
    return ctor(abbr, label, base_ or base.DEC)
end

-- One ProtoField per metadata part under ``prefix`` (e.g. "int.hop"), into ``fields``.
local function make_md_fields(prefix, items, fields)
    local made = {}
    for _, item in ipairs(items) do
        for _, part in ipairs(item.parts) do
            if not made[part[1]] then
                made[part[1]] = uint_field(prefix .. "." .. part[1], part[2], part[3], part[4])
                table.insert(fields, made[part[1]])
            end
        end
    end
    return made
end

-- Bitmap bit fields (16-bit, bit 0 = 0x8000) under ``prefix``.
local function make_bit_fields(prefix, names, fields)
    local made = {}
    for bitno, entry in pairs(names) do
        made[bitno] = ProtoField.bool(prefix .. "." .. entry[1], entry[2], 16, nil, mask_of(bitno))
        table.insert(fields, made[bitno])
    end
    return made
end

local function bit_names(value, names)
    local out = {}
    for bitno = 0, 15 do
        if band(value, mask_of(bitno)) ~= 0 then
            table.insert(out, names[bitno] and names[bitno][1] or ("bit" .. bitno))
        end
    end
    return table.concat(out, ", ")
end

local INSTR_BITS, REPMD_BITS = {}, {}
for _, item in ipairs(MD_ITEMS) do
    INSTR_BITS[item.bit] = { item.name, item.label }
    if item.bit ~= 0 then REPMD_BITS[item.bit] = { item.name, item.label } end
end
INSTR_BITS[15] = { "checksum", "Checksum complement" }
REPMD_BITS[15] = { "drop_reason", "Queue ID and drop reason" }

-- Adds ``part`` fields from ``items`` selected by ``bitmap`` at ``offset``; returns
-- the offset after them. Values of all ones are marked unavailable (INT v2.1).
local function add_md(tree, buf, offset, limit, bitmap, items, fields)
    for _, item in ipairs(items) do
        if band(bitmap, mask_of(item.bit)) ~= 0 then
            if offset + 4 * item.words > limit then return offset, false end
            for _, part in ipairs(item.parts) do
                local range = buf(offset, part[3])
                local ti = tree:add(fields[part[1]], range)
                if range:bytes():tohex() == string.rep("FF", part[3]) then
                    ti:append_text(" (unavailable)")
                end
                offset = offset + part[3]
            end
        end
    end
    return offset, true
end

local function md_words(bitmap, items)
    local words = 0
    for _, item in ipairs(items) do
        if band(bitmap, mask_of(item.bit)) ~= 0 then words = words + item.words end
    end
    return words
end

-- ================================================================== UEC PDS
local uec = Proto("uec", "UEC PDS (p4fabric)")
local pf = {
    type = ProtoField.uint16("uec.pds.type", "Type", base.DEC, PDS_TYPES, 0xF800),
    next_hdr = ProtoField.uint16("uec.pds.next_hdr", "Next header", base.DEC, nil, 0x0780),
    ctl_type = ProtoField.uint16("uec.pds.ctl_type", "Control type", base.DEC, CTL_TYPES, 0x0780),
    flags = ProtoField.uint16("uec.pds.flags", "Flags", base.HEX, nil, 0x007F),
    f_retrans = ProtoField.bool("uec.pds.flags.retrans", "Retransmitted", 16, nil, 0x0010),
    f_ackreq = ProtoField.bool("uec.pds.flags.ackreq", "ACK requested", 16, nil, 0x0008),
    f_syn = ProtoField.bool("uec.pds.flags.syn", "SYN", 16, nil, 0x0004),
    f_ecn = ProtoField.bool("uec.pds.flags.ecn_marked", "ECN marked", 16, nil, 0x0020),
    f_probe = ProtoField.bool("uec.pds.flags.probe", "Probe", 16, nil, 0x0008),
    f_request = ProtoField.uint16("uec.pds.flags.request", "Request", base.DEC, nil, 0x0006),
    f_nack_type = ProtoField.bool("uec.pds.flags.nack_type", "NACK type", 16, nil, 0x0008),
    f_isrod = ProtoField.bool("uec.pds.flags.isrod", "ROD", 16, nil, 0x0020),
    clear_psn_offset = ProtoField.uint16("uec.pds.clear_psn_offset", "Clear PSN offset"),
    psn = ProtoField.uint32("uec.pds.psn", "PSN"),
    spdcid = ProtoField.uint16("uec.pds.spdcid", "Source PDC ID"),
    dpdcid = ProtoField.uint16("uec.pds.dpdcid", "Destination PDC ID"),
    ccc_id = ProtoField.uint8("uec.pds.ccc_id", "CC context ID"),
    credit_target = ProtoField.uint24("uec.pds.credit_target", "Credit target"),
    ack_psn_offset = ProtoField.uint16("uec.pds.ack_psn_offset", "ACK PSN offset"),
    cack_psn = ProtoField.uint32("uec.pds.cack_psn", "Cumulative ACK PSN"),
    cc_type = ProtoField.uint8("uec.pds.cc_type", "CC type", base.DEC, CC_TYPES, 0xF0),
    cc_flags = ProtoField.uint8("uec.pds.cc_flags", "CC flags", base.HEX, nil, 0x0F),
    mpr = ProtoField.uint8("uec.pds.mpr", "MPR"),
    sack_psn_offset = ProtoField.uint16("uec.pds.sack_psn_offset", "SACK PSN offset"),
    sack_bitmap = ProtoField.uint64("uec.pds.sack_bitmap", "SACK bitmap", base.HEX),
    sack_psn = ProtoField.uint32("uec.pds.sack_psn", "SACKed PSN"),
    service_time = ProtoField.uint16("uec.pds.service_time", "Service time"),
    restore_cwnd = ProtoField.bool("uec.pds.restore_cwnd", "Restore cwnd", 8, nil, 0x80),
    rcv_cwnd_pend = ProtoField.uint8("uec.pds.rcv_cwnd_pend", "Receiver cwnd pending", base.DEC, nil, 0x7F),
    rcvd_bytes = ProtoField.uint24("uec.pds.rcvd_bytes", "Received bytes"),
    credit = ProtoField.uint24("uec.pds.credit", "Credit"),
    ooo_count = ProtoField.uint16("uec.pds.ooo_count", "Out-of-order count"),
    nack_code = ProtoField.uint8("uec.pds.nack_code", "NACK code", base.HEX, NACK_CODES),
    vendor_code = ProtoField.uint8("uec.pds.vendor_code", "Vendor code", base.HEX),
    nack_psn = ProtoField.uint32("uec.pds.nack_psn", "NACK PSN"),
    nack_payload = ProtoField.uint32("uec.pds.nack_payload", "NACK payload", base.HEX),
    probe_opaque = ProtoField.uint16("uec.pds.probe_opaque", "Probe opaque", base.HEX),
    credit_marked = ProtoField.bool("uec.pds.credit_marked", "Credit marked by a switch", 8, nil, 0x80),
}
uec.fields = pf
-- A note, not an error: the fabric trims packets and reports carry cut-short packets.
local ex_uec_short = ProtoExpert.new("uec.truncated", "PDS header cut short (trimmed or in a report)",
                                     expert.group.PROTOCOL, expert.severity.NOTE)
uec.experts = { ex_uec_short }
uec.prefs.udp_port = Pref.uint("UDP port", UEC_PORT, "UDP destination port of UEC transport")

local data_dissector = Dissector.get("data")

-- {field, offset, bytes} rows after the prologue, by layout.
local REQ = { { pf.clear_psn_offset, 2, 2 }, { pf.psn, 4, 4 }, { pf.spdcid, 8, 2 }, { pf.dpdcid, 10, 2 } }
local REQ_CC = { { pf.ccc_id, 12, 1 }, { pf.credit_target, 13, 3 } }
local ACK = { { pf.ack_psn_offset, 2, 2 }, { pf.cack_psn, 4, 4 }, { pf.spdcid, 8, 2 }, { pf.dpdcid, 10, 2 } }
local ACK_CC = { { pf.cc_type, 12, 1 }, { pf.cc_flags, 12, 1 }, { pf.mpr, 13, 1 },
                 { pf.sack_psn_offset, 14, 2 }, { pf.sack_bitmap, 16, 8 } }
local ACK_NSCC = { { pf.service_time, 24, 2 }, { pf.restore_cwnd, 26, 1 }, { pf.rcv_cwnd_pend, 26, 1 },
                   { pf.rcvd_bytes, 27, 3 }, { pf.ooo_count, 30, 2 } }
local ACK_CREDIT = { { pf.credit, 24, 3 }, { pf.ooo_count, 30, 2 } }
local NACK = { { pf.nack_code, 2, 1 }, { pf.vendor_code, 3, 1 }, { pf.nack_psn, 4, 4 },
               { pf.spdcid, 8, 2 }, { pf.dpdcid, 10, 2 }, { pf.nack_payload, 12, 4 } }
local CONTROL = { { pf.probe_opaque, 2, 2 }, { pf.psn, 4, 4 }, { pf.spdcid, 8, 2 }, { pf.dpdcid, 10, 2 },
                  { pf.credit_marked, 12, 1 }, { pf.credit, 13, 3 } }
local FLAGS = {
    request = { pf.f_retrans, pf.f_ackreq, pf.f_syn },
    ack = { pf.f_ecn, pf.f_retrans, pf.f_probe, pf.f_request },
    nack = { pf.f_ecn, pf.f_retrans, pf.f_nack_type },
    control = { pf.f_isrod, pf.f_retrans, pf.f_ackreq, pf.f_syn },
}

-- Adds the rows that fit; false if the header is cut short.
local function add_rows(tree, buf, rows)
    local whole = true
    for _, row in ipairs(rows) do
        if row[2] + row[3] <= buf:len() then
            tree:add(row[1], buf(row[2], row[3]))
        else
            whole = false
        end
    end
    return whole
end

local function pds_layout(ptype, buf)
    if ptype == 2 or ptype == 3 then return 12, { REQ }, FLAGS.request end
    if ptype == 13 or ptype == 14 then return 16, { REQ, REQ_CC }, FLAGS.request end
    if ptype == 7 then return 12, { ACK }, FLAGS.ack end
    if ptype == 8 then
        local tail = ACK_NSCC
        if buf:len() > 12 and rshift(buf(12, 1):uint(), 4) == 1 then tail = ACK_CREDIT end
        return 32, { ACK, ACK_CC, tail }, FLAGS.ack
    end
    if ptype == 10 then return 16, { NACK }, FLAGS.nack end
    if ptype == 11 then return 16, { CONTROL }, FLAGS.control end
    return 2, {}, {}
end

local function uec_summary(ptype, buf)
    local name = PDS_TYPES[ptype] or ("type " .. ptype)
    local function u(o, n) if o + n <= buf:len() then return buf(o, n):uint() end return "?" end
    if ptype == 2 or ptype == 3 or ptype == 13 or ptype == 14 then
        return string.format("PDS %s PSN=%s SPDCID=%s DPDCID=%s", name, u(4, 4), u(8, 2), u(10, 2))
    elseif ptype == 7 or ptype == 8 then
        return string.format("PDS %s CACK_PSN=%s", name, u(4, 4))
    elseif ptype == 10 then
        return string.format("PDS NACK %s PSN=%s", NACK_CODES[u(2, 1)] or tostring(u(2, 1)), u(4, 4))
    elseif ptype == 11 then
        local ctl = rshift(band(buf(0, 2):uint(), 0x0780), 7)
        return string.format("PDS CONTROL %s PSN=%s credit=%s", CTL_TYPES[ctl] or tostring(ctl),
                             u(4, 4), u(13, 3))
    end
    return "PDS " .. name
end

-- The PDS header and what follows; ``after_int`` appends to the Info column.
local function dissect_pds(buf, pinfo, tree, after_int)
    if buf:len() < 2 then return 0 end
    local ptype = rshift(buf(0, 1):uint(), 3)
    local size, blocks, flag_fields = pds_layout(ptype, buf)
    pinfo.cols.protocol = "UEC"
    local summary = uec_summary(ptype, buf)
    if after_int then pinfo.cols.info:append(" | " .. summary) else pinfo.cols.info = summary end
    local t = tree:add(uec, buf(0, math.min(size, buf:len())), "UEC PDS, " .. summary)
    t:add(pf.type, buf(0, 2))
    t:add(ptype == 11 and pf.ctl_type or pf.next_hdr, buf(0, 2))
    local ft = t:add(pf.flags, buf(0, 2))
    for _, f in ipairs(flag_fields) do ft:add(f, buf(0, 2)) end
    local whole = true
    for _, rows in ipairs(blocks) do whole = add_rows(t, buf, rows) and whole end
    if ptype == 8 and buf:len() >= 24 then
        -- SACK bitmap bit i (least significant first) acknowledges CACK_PSN + SACK PSN offset + i.
        local base_psn = buf(4, 4):uint() + buf(14, 2):uint()
        local words = { [0] = buf(20, 4):uint(), [1] = buf(16, 4):uint() }  -- low, high
        for i = 0, 63 do
            if band(words[math.floor(i / 32)], 2 ^ (i % 32)) ~= 0 then
                t:add(pf.sack_psn, (base_psn + i) % 4294967296):set_generated()
            end
        end
    end
    if not whole then t:add_proto_expert_info(ex_uec_short) end
    if buf:len() > size then data_dissector:call(buf(size):tvb(), pinfo, tree) end
    return buf:len()
end

-- ================================================================== INT-MD
local intp = Proto("int", "INT-MD v2.1 (p4fabric)")
local INSTR_RESERVED = 0x007E
local hf = {
    shim_type = ProtoField.uint8("int.shim.type", "Type", base.DEC, INT_TYPES, 0xF0),
    shim_npt = ProtoField.uint8("int.shim.npt", "Next protocol type", base.DEC, NPT_NAMES, 0x0C),
    shim_rsvd0 = ProtoField.uint8("int.shim.rsvd", "Reserved", base.HEX, nil, 0x03),
    shim_len = ProtoField.uint8("int.shim.length", "Length (words, shim excluded)"),
    shim_dscp = ProtoField.uint8("int.shim.dscp", "Original DSCP", base.HEX, nil, 0xFC),
    shim_dport = ProtoField.uint16("int.shim.orig_dport", "Original UDP destination port"),
    shim_proto = ProtoField.uint8("int.shim.orig_proto", "Original IP protocol"),
    ver = ProtoField.uint32("int.md.version", "Version", base.DEC, nil, 0xF0000000),
    d = ProtoField.bool("int.md.d", "D (discard at sink)", 32, nil, 0x08000000),
    e = ProtoField.bool("int.md.e", "E (max hop count exceeded)", 32, nil, 0x04000000),
    m = ProtoField.bool("int.md.m", "M (MTU exceeded)", 32, nil, 0x02000000),
    md_rsvd = ProtoField.uint32("int.md.rsvd", "Reserved", base.HEX, nil, 0x01FFE000),
    hop_ml = ProtoField.uint32("int.md.hop_ml", "Hop ML (words per hop)", base.DEC, nil, 0x00001F00),
    remaining = ProtoField.uint32("int.md.remaining_hop_cnt", "Remaining hop count", base.DEC, nil, 0x000000FF),
    instructions = ProtoField.uint16("int.md.instructions", "Instruction bitmap", base.HEX),
    instr_rsvd = ProtoField.uint16("int.md.instr.reserved", "Reserved bits 9-14", base.HEX, nil, INSTR_RESERVED),
    domain_id = ProtoField.uint16("int.md.domain_id", "Domain specific ID"),
    ds_instruction = ProtoField.uint16("int.md.ds_instruction", "DS instruction", base.HEX),
    ds_flags = ProtoField.uint16("int.md.ds_flags", "DS flags", base.HEX),
    hops = ProtoField.uint8("int.md.hops", "Hops in the stack"),
    hop_index = ProtoField.uint8("int.hop.index", "Hop index (0 = newest)"),
    hop_extra = ProtoField.bytes("int.hop.extra", "Metadata beyond bits 0-8"),
    stack_rest = ProtoField.bytes("int.stack.rest", "Stack bytes not a whole hop"),
}
local int_fields = {}
for _, f in pairs(hf) do table.insert(int_fields, f) end
local hop_f = make_md_fields("int.hop", MD_ITEMS, int_fields)
local instr_f = make_bit_fields("int.md.instr", INSTR_BITS, int_fields)
intp.fields = int_fields
local ex_int_short = ProtoExpert.new("int.truncated", "INT headers or stack truncated",
                                     expert.group.MALFORMED, expert.severity.WARN)
local ex_hop_ml = ProtoExpert.new("int.hop_ml_mismatch", "Hop ML disagrees with the instruction bitmap",
                                  expert.group.PROTOCOL, expert.severity.WARN)
local ex_stack = ProtoExpert.new("int.stack_not_whole", "Stack is not a whole number of hops",
                                 expert.group.PROTOCOL, expert.severity.WARN)
intp.experts = { ex_int_short, ex_hop_ml, ex_stack }
intp.prefs.dscp = Pref.uint("INT DSCP", INT_DSCP, "DSCP value that marks INT-MD packets (INT_DSCP)")
intp.prefs.dscp_mask = Pref.uint("INT DSCP mask", 0x3F, "Mask applied to the DSCP before comparing (INT_DSCP_MASK)")

local f_ip_dscp = Field.new("ip.dsfield.dscp")
local f_udp_dport = Field.new("udp.dstport")

-- The innermost IPv4 header (the one carrying this payload) has the INT DSCP, and
-- the payload starts like an INT-MD shim and header.
local function int_present(buf)
    local dscps = { f_ip_dscp() }
    if #dscps == 0 then return false end
    local mask = intp.prefs.dscp_mask
    if band(dscps[#dscps].value, mask) ~= band(intp.prefs.dscp, mask) then return false end
    if buf:len() < 16 then return false end
    local b0 = buf(0, 1):uint()
    return rshift(b0, 4) == 1 and band(b0, 0x03) == 0 and rshift(band(b0, 0x0C), 2) <= 2
        and buf(1, 1):uint() >= 3 and rshift(buf(4, 1):uint(), 4) == 2
end

local function innermost_udp_dport()
    local ports = { f_udp_dport() }
    if #ports == 0 then return nil end
    return ports[#ports].value
end

local function dissect_int(buf, pinfo, tree)
    local shim_words = buf(1, 1):uint()
    local total = 4 + 4 * shim_words
    local t = tree:add(intp, buf(0, math.min(total, buf:len())))
    local shim = t:add(buf(0, 4), "INT shim")
    shim:add(hf.shim_type, buf(0, 1))
    shim:add(hf.shim_npt, buf(0, 1))
    shim:add(hf.shim_rsvd0, buf(0, 1))
    shim:add(hf.shim_len, buf(1, 1))
    local npt = rshift(band(buf(0, 1):uint(), 0x0C), 2)
    if npt == 0 then shim:add(hf.shim_dscp, buf(3, 1))
    elseif npt == 1 then shim:add(hf.shim_dport, buf(2, 2))
    else shim:add(hf.shim_proto, buf(3, 1)) end

    local md = t:add(buf(4, 12), "INT-MD metadata header")
    for _, f in ipairs({ hf.ver, hf.d, hf.e, hf.m, hf.md_rsvd, hf.hop_ml, hf.remaining }) do
        md:add(f, buf(4, 4))
    end
    local instructions = buf(8, 2):uint()
    local it = md:add(hf.instructions, buf(8, 2))
    it:append_text(" (" .. bit_names(instructions, INSTR_BITS) .. ")")
    for bitno = 0, 15 do
        if instr_f[bitno] then it:add(instr_f[bitno], buf(8, 2)) end
    end
    it:add(hf.instr_rsvd, buf(8, 2))
    md:add(hf.domain_id, buf(10, 2))
    md:add(hf.ds_instruction, buf(12, 2))
    md:add(hf.ds_flags, buf(14, 2))

    local hop_ml = band(rshift(buf(4, 4):uint(), 8), 0x1F)
    local expected = md_words(instructions, MD_ITEMS) + (band(instructions, 1) ~= 0 and 1 or 0)
    if hop_ml ~= expected then md:add_proto_expert_info(ex_hop_ml) end
    local stack_bytes = 4 * math.max(shim_words - 3, 0)
    local present = math.min(stack_bytes, buf:len() - 16)
    local hops = hop_ml > 0 and math.floor(stack_bytes / (4 * hop_ml)) or 0
    md:add(hf.hops, hops):set_generated()
    if hop_ml > 0 and stack_bytes % (4 * hop_ml) ~= 0 then t:add_proto_expert_info(ex_stack) end

    local nodes = {}
    local at = 16
    for index = 0, hops - 1 do
        local hop_end = at + 4 * hop_ml
        if hop_end > 16 + present then break end
        local ht = t:add(buf(at, 4 * hop_ml), "Hop " .. index)
        ht:add(hf.hop_index, index):set_generated()
        local after = add_md(ht, buf, at, hop_end, instructions, MD_ITEMS, hop_f)
        if after < hop_end then ht:add(hf.hop_extra, buf(after, hop_end - after)) end
        if band(instructions, 0x8000) ~= 0 then
            local node = buf(at, 4):uint()
            table.insert(nodes, tostring(node))
            ht:append_text(", node " .. node)
        end
        at = hop_end
    end
    if at < 16 + present then t:add(hf.stack_rest, buf(at, 16 + present - at)) end
    if present < stack_bytes then t:add_proto_expert_info(ex_int_short) end
    local summary = string.format("INT-MD %d hop%s", hops, hops == 1 and "" or "s")
    if #nodes > 0 then summary = summary .. " (nodes " .. table.concat(nodes, ",") .. ")" end
    t:append_text(", " .. summary)
    pinfo.cols.protocol = "INT-MD"
    pinfo.cols.info = summary

    local rest = 16 + present
    if rest < buf:len() then
        local payload = buf(rest):tvb()
        if innermost_udp_dport() == uec.prefs.udp_port and pinfo.dst_port == uec.prefs.udp_port then
            dissect_pds(payload, pinfo, tree, true)
        else
            data_dissector:call(payload, pinfo, tree)
        end
    end
    return buf:len()
end

local function int_heuristic(buf, pinfo, tree)
    if not int_present(buf) then return false end
    dissect_int(buf, pinfo, tree)
    return true
end
intp:register_heuristic("udp", int_heuristic)
intp:register_heuristic("tcp", int_heuristic)

function uec.dissector(buf, pinfo, tree)
    if int_present(buf) then return dissect_int(buf, pinfo, tree) end
    return dissect_pds(buf, pinfo, tree, false)
end

-- ================================================================== Telemetry Report v2.0
local rep = Proto("intrep", "Telemetry Report v2.0 (p4fabric)")
local rf = {
    version = ProtoField.uint32("intrep.version", "Version", base.DEC, nil, 0xF0000000),
    hw_id = ProtoField.uint32("intrep.hw_id", "Hardware ID", base.DEC, nil, 0x0FC00000),
    seq = ProtoField.uint32("intrep.seq", "Sequence number", base.DEC, nil, 0x003FFFFF),
    node_id = ProtoField.uint32("intrep.node_id", "Node ID", base.DEC_HEX),
    rep_type = ProtoField.uint8("intrep.rep_type", "RepType", base.DEC, REP_TYPES, 0xF0),
    in_type = ProtoField.uint8("intrep.in_type", "InType", base.DEC, IN_TYPES, 0x0F),
    report_length = ProtoField.uint8("intrep.report_length", "Report length (words, first excluded)"),
    md_length = ProtoField.uint8("intrep.md_length", "MD length (words)"),
    d = ProtoField.bool("intrep.d", "D (dropped)", 8, nil, 0x80),
    q = ProtoField.bool("intrep.q", "Q (congested queue)", 8, nil, 0x40),
    f = ProtoField.bool("intrep.f", "F (tracked flow)", 8, nil, 0x20),
    i = ProtoField.bool("intrep.i", "I (intermediate)", 8, nil, 0x10),
    rsvd = ProtoField.uint8("intrep.rsvd", "Reserved", base.HEX, nil, 0x0F),
    rep_md_bits = ProtoField.uint16("intrep.rep_md_bits", "RepMdBits", base.HEX),
    repmd_rsvd = ProtoField.uint16("intrep.rep_md_bits.reserved", "Reserved bits 0, 9-14", base.HEX, nil, 0x807E),
    domain_id = ProtoField.uint16("intrep.domain_id", "Domain specific ID"),
    ds_md_bits = ProtoField.uint16("intrep.ds_md_bits", "DSMdBits", base.HEX),
    ds_md_status = ProtoField.uint16("intrep.ds_md_status", "DSMdStatus", base.HEX),
    ds_md = ProtoField.bytes("intrep.ds_md", "Domain specific metadata"),
    report_index = ProtoField.uint8("intrep.report_index", "Individual report index"),
}
local rep_fields = {}
for _, f in pairs(rf) do table.insert(rep_fields, f) end
local REPORT_ITEMS = {}
for _, item in ipairs(MD_ITEMS) do if item.bit ~= 0 then table.insert(REPORT_ITEMS, item) end end
table.insert(REPORT_ITEMS, REPORT_DROP_ITEM)
local rmd_f = make_md_fields("intrep.md", REPORT_ITEMS, rep_fields)
local repbit_f = make_bit_fields("intrep.rep_md_bits", REPMD_BITS, rep_fields)
rep.fields = rep_fields
local ex_rep_len = ProtoExpert.new("intrep.bad_length", "Report or MD length runs past the datagram",
                                   expert.group.MALFORMED, expert.severity.ERROR)
rep.experts = { ex_rep_len }
rep.prefs.udp_port = Pref.uint("UDP port", REPORT_PORT, "UDP destination port of telemetry reports")

local inner_dissectors = { [3] = Dissector.get("eth_withoutfcs"), [4] = Dissector.get("ip"),
                           [5] = Dissector.get("ipv6") }

function rep.dissector(buf, pinfo, tree)
    if buf:len() < 12 or rshift(buf(0, 1):uint(), 4) ~= 2 then return 0 end
    local seq = band(buf(0, 4):uint(), 0x003FFFFF)
    local node = buf(4, 4):uint()
    local t = tree:add(rep, buf(), string.format("Telemetry Report v2.0, node %d, seq %d", node, seq))
    local group = t:add(buf(0, 8), "Report group header")
    for _, f in ipairs({ rf.version, rf.hw_id, rf.seq }) do group:add(f, buf(0, 4)) end
    group:add(rf.node_id, buf(4, 4))
    pinfo.cols.protocol = "INT Report"
    -- The inner packet's dissectors write after the fence, so Info reads "Report ... | inner".
    pinfo.cols.info = string.format("Report node=%d seq=%d | ", node, seq)
    pinfo.cols.info:fence()

    local at, index = 8, 0
    while at + 4 <= buf:len() do
        local rep_type, in_type = rshift(buf(at, 1):uint(), 4), band(buf(at, 1):uint(), 0x0F)
        local report_end = at + 4 + 4 * buf(at + 1, 1):uint()
        local it = t:add(buf(at, math.min(report_end, buf:len()) - at),
                         string.format("Individual report %d: %s, inner %s", index,
                                       REP_TYPES[rep_type] or "reserved", IN_TYPES[in_type] or "reserved"))
        it:add(rf.report_index, index):set_generated()
        it:add(rf.rep_type, buf(at, 1))
        it:add(rf.in_type, buf(at, 1))
        it:add(rf.report_length, buf(at + 1, 1))
        it:add(rf.md_length, buf(at + 2, 1))
        for _, f in ipairs({ rf.d, rf.q, rf.f, rf.i, rf.rsvd }) do it:add(f, buf(at + 3, 1)) end
        if report_end > buf:len() then
            it:add_proto_expert_info(ex_rep_len)
            report_end = buf:len()
        end
        local inner_at = at + 4
        if rep_type == 1 and at + 12 <= report_end then
            local bits = buf(at + 4, 2):uint()
            local bt = it:add(rf.rep_md_bits, buf(at + 4, 2))
            bt:append_text(" (" .. (bits == 0 and "none" or bit_names(bits, REPMD_BITS)) .. ")")
            for bitno = 1, 15 do
                if repbit_f[bitno] then bt:add(repbit_f[bitno], buf(at + 4, 2)) end
            end
            bt:add(rf.repmd_rsvd, buf(at + 4, 2))
            it:add(rf.domain_id, buf(at + 6, 2))
            it:add(rf.ds_md_bits, buf(at + 8, 2))
            it:add(rf.ds_md_status, buf(at + 10, 2))
            local md_end = at + 12 + 4 * buf(at + 2, 1):uint()
            if md_end > report_end then
                it:add_proto_expert_info(ex_rep_len)
                md_end = report_end
            end
            if md_end > at + 12 then
                local mt = it:add(buf(at + 12, md_end - at - 12), "Reporting node's metadata")
                local after = add_md(mt, buf, at + 12, md_end, bits, REPORT_ITEMS, rmd_f)
                if after < md_end then mt:add(rf.ds_md, buf(after, md_end - after)) end
            end
            inner_at = md_end
        end
        if inner_at < report_end then
            local inner = buf(inner_at, report_end - inner_at):tvb()
            local dissector = inner_dissectors[in_type]
            if dissector then dissector:call(inner, pinfo, tree) else data_dissector:call(inner, pinfo, tree) end
        end
        at, index = report_end, index + 1
    end
    pinfo.cols.protocol = "INT Report"  -- after the inner packet's dissectors set theirs
    return buf:len()
end

-- ================================================================== registration
local udp_port = DissectorTable.get("udp.port")
local registered = {}
local function register_ports()
    for proto, port in pairs(registered) do udp_port:remove(port, proto) end
    registered = { [uec] = uec.prefs.udp_port, [rep] = rep.prefs.udp_port }
    for proto, port in pairs(registered) do udp_port:add(port, proto) end
end
uec.prefs_changed = register_ports
rep.prefs_changed = register_ports
register_ports()
