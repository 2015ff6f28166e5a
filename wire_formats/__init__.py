"""The fabric's bytes on the wire, in one place for endpoints, collector, PTF tests and
controller alike: scapy layers (``layers``) that define every header once, fast codecs
whose field positions are learnt from those layers (``layout`` for fixed headers read as
one integer, ``pds_codec`` for the UEC PDS headers, ``uec_datagram`` for whole IPv4/UDP
datagrams the endpoints send), and the Internet checksum (``checksum``).
"""
