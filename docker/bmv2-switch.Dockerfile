# BMv2's simple_switch_grpc in a container, for labs that
# `fabricctl export --format containerlab --target bmv2` writes. The p4lang image is
# built with simple_switch_grpc (P4Runtime on gRPC, no Thrift server). Build from the
# repository's top directory:
#     docker build -f docker/bmv2-switch.Dockerfile -t bmv2-switch:latest .
# The container runs simple_switch_grpc with the node's cmd as its arguments, once every
# interface they name exists (docker/wait-for-ports); tc (iproute2) shapes its links.
FROM p4lang/behavioral-model:latest
RUN apt-get update \
    && apt-get install -y --no-install-recommends iproute2 \
    && rm -rf /var/lib/apt/lists/*
COPY docker/wait-for-ports /usr/local/bin/wait-for-ports
EXPOSE 9559
ENTRYPOINT ["/usr/local/bin/wait-for-ports", "simple_switch_grpc"]
CMD ["--no-p4", "--", "--grpc-server-addr", "0.0.0.0:9559"]
