# p4sim-switch in a container, for labs that `fabricctl export --format containerlab`
# writes (also the image of their hosts and collectors: it holds the project's endpoints
# and collector). Build from the repository's top directory:
#     docker build -f docker/p4sim-switch.Dockerfile -t p4sim-switch:latest .
# The container runs p4sim-switch with the node's cmd as its arguments, once every
# interface they name exists (docker/wait-for-ports).
FROM python:3.11-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends iproute2 ethtool \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/p4sim
COPY pyproject.toml README.md ./
COPY p4sim ./p4sim
COPY control ./control
COPY endpoints ./endpoints
COPY wire_formats ./wire_formats
RUN pip install --no-cache-dir .
COPY docker/wait-for-ports /usr/local/bin/wait-for-ports
# P4Runtime (the topology's gRPC port) and the control channel.
EXPOSE 9559 9090
ENTRYPOINT ["/usr/local/bin/wait-for-ports", "p4sim-switch"]
CMD ["--no-p4", "--", "--grpc-server-addr", "0.0.0.0:9559"]
