"""PI's `p4.tmp.P4DeviceConfig` message, for clients that import `p4.tmp.p4config_pb2`.

The p4lang/tutorials helper library (utils/p4runtime_lib) wraps the BMv2 JSON in this
message and imports it from `p4.tmp`, which BMv2's PI build installs and no pip package
ships (the `p4runtime` package has only `p4.v1` and `p4.config.v1`).  Without it those
scripts fail at import, before any switch is reached.  The message is declared here from
its three fields (PI's p4/tmp/p4config.proto: `bool reassign = 1; Extras extras = 2;
bytes device_data = 3;`, Extras a string map) and registered in protobuf's default pool
under PI's file and package names; the `p4.tmp.p4config_pb2` module p4sim installs
re-exports it.  The switch itself reads the wrapper from the wire
(device_config.py) and needs none of this.
"""
from __future__ import annotations

from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

PROTO_FILE = "p4/tmp/p4config.proto"
PACKAGE = "p4.tmp"


def _file_proto() -> descriptor_pb2.FileDescriptorProto:
    F = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(name=PROTO_FILE, package=PACKAGE,
                                               syntax="proto3")
    config = proto.message_type.add(name="P4DeviceConfig")
    extras = config.nested_type.add(name="Extras")
    entry = extras.nested_type.add(name="KvEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    entry.field.add(name="value", number=2, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    extras.field.add(name="kv", number=1, type=F.TYPE_MESSAGE, label=F.LABEL_REPEATED,
                     type_name=f".{PACKAGE}.P4DeviceConfig.Extras.KvEntry")
    config.field.add(name="reassign", number=1, type=F.TYPE_BOOL, label=F.LABEL_OPTIONAL)
    config.field.add(name="extras", number=2, type=F.TYPE_MESSAGE, label=F.LABEL_OPTIONAL,
                     type_name=f".{PACKAGE}.P4DeviceConfig.Extras")
    config.field.add(name="device_data", number=3, type=F.TYPE_BYTES,
                     label=F.LABEL_OPTIONAL)
    return proto


def _message_class(full_name: str) -> Any:
    pool = descriptor_pool.Default()
    try:
        pool.FindFileByName(PROTO_FILE)
    except KeyError:
        pool.AddSerializedFile(_file_proto().SerializeToString())
    descriptor = pool.FindMessageTypeByName(full_name)
    get_class = getattr(message_factory, "GetMessageClass", None)  # protobuf >= 4.21
    if get_class is not None:
        return get_class(descriptor)
    return message_factory.MessageFactory(pool).GetPrototype(descriptor)


P4DeviceConfig: Any = _message_class(f"{PACKAGE}.P4DeviceConfig")
