"""Two real peering servers on 127.0.0.1 ephemeral ports, pushing to each other, and
every refusal of the API with its status code."""
from __future__ import annotations

import dataclasses
import http.client
import json
from urllib.parse import urlsplit

import pytest

from control.peering.border_choice import LocalBorder, choose_border
from control.peering.client import PeeringClient, PeeringError, push_to_peers
from control.peering.peers import PeerTable
from control.peering.server import MAX_BODY_BYTES, PeeringServer
from control.peering.summary import (BorderLink, BorderSummary, Capacity, Health,
                                     PartitionPrefixes, PathLatency, Summary, SummaryError,
                                     known_partitions,
                                     to_json)

KNOWN = known_partitions({1: "tenant-a", 2: "tenant-b"})


class Clock:
    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now


def _west(serial: int = 1) -> Summary:
    return Summary(1, "west", serial, 2000.0, (PartitionPrefixes(0, "shared", ("10.1.1.0/24",)),),
                   (BorderSummary("w-bd1", BorderLink("w-bd1:2", "e-bd1:2", "east"),
                                  PathLatency(70, 90, 12, "int"), Capacity(100_000_000, 0),
                                  Health(True, 1999.0)),))


@pytest.fixture
def pair(east):
    """West's and east's servers, each peering with the other, with their clocks."""
    clocks = {"west": Clock(), "east": Clock()}
    west = PeeringServer("west", PeerTable({"east": 2}, 10.0, clocks["west"]), KNOWN)
    east_server = PeeringServer("east", PeerTable({"west": 1}, 10.0, clocks["east"]), KNOWN)
    west.set_summary(_west())
    east_server.set_summary(east)
    with west, east_server:
        yield west, east_server, clocks


def _raw(url: str, method: str, path: str, body: bytes | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict, dict]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        # putrequest adds no Content-Length of its own: a test can leave it out.
        conn.putrequest(method, path, skip_accept_encoding=True)
        headers = dict(headers or {})
        if body is not None:
            headers.setdefault("Content-Length", str(len(body)))
        for name, value in headers.items():
            conn.putheader(name, value)
        conn.endheaders()
        if body is not None:
            conn.send(body)
        answer = conn.getresponse()
        return answer.status, dict(answer.getheaders()), json.loads(answer.read())
    finally:
        conn.close()


def test_two_servers_push_to_each_other(pair, east):
    west, east_server, _ = pair
    assert west.url.startswith("http://127.0.0.1:") and east_server.url != west.url
    # Each controller pushes its own summary to its peer.
    assert PeeringClient(east_server.url, KNOWN).push("west", _west()) == \
        {"accepted": True, "domain": "west", "serial": 1}
    assert push_to_peers("east", east, {"west": west.url}, KNOWN) == {"west": None}
    assert west.peers.state("east").summary == east
    assert east_server.peers.state("west").summary == _west()
    # Each serves its own summary, and what it holds of the other.
    assert PeeringClient(west.url, KNOWN).summary() == _west()
    assert PeeringClient(east_server.url, KNOWN).summary() == east
    held = PeeringClient(west.url, KNOWN).peers()
    assert held["domain"] == "west" and held["ttl_s"] == 10.0
    assert [(p["domain"], p["received"], p["expired"], p["age_s"]) for p in held["peers"]] == \
        [("east", True, False, 0.0)]
    assert held["peers"][0]["summary"]["serial"] == 1


def test_the_age_grows_with_the_clock_and_the_summary_expires(pair, east):
    west, _, clocks = pair
    push_to_peers("east", east, {"west": west.url}, KNOWN)
    clocks["west"].now += 4.0
    entry = PeeringClient(west.url).peers()["peers"][0]
    assert (entry["age_s"], entry["expired"]) == (4.0, False)
    clocks["west"].now += 6.5
    entry = PeeringClient(west.url).peers()["peers"][0]
    assert (entry["age_s"], entry["expired"]) == (10.5, True)
    # Expired: west's border choice treats east's borders as unhealthy.
    local = [LocalBorder("w-bd1:2", "e-bd1:2", "east", True), LocalBorder("w-bd2:2", "e-bd2:2", "east", True)]
    choice = choose_border("10.2.1.1", 0, west.peers.states(), local)
    assert choice.chosen is None and {why for _, why in choice.skipped} == \
        {"summary of east expired (10.5 s old)"}
    # A new push makes it fresh again.
    push_to_peers("east", dataclasses.replace(east, serial=2), {"west": west.url}, KNOWN)
    assert choose_border("10.2.1.1", 0, west.peers.states(), local).chosen.local == "w-bd1:2"


def test_a_peer_not_heard_from_is_listed_as_expired(pair):
    west, _, _ = pair
    entry = PeeringClient(west.url).peers()["peers"][0]
    assert entry == {"domain": "east", "domain_id": 2, "received": False, "age_s": None,
                     "expired": True, "summary": None}
    status, _, body = _raw(west.url, "GET", "/v1/peers/east/summary")
    assert status == 404 and body["error"]["reason"] == "no summary from 'east' yet"


def test_one_peers_held_summary_is_served(pair, east):
    west, _, _ = pair
    push_to_peers("east", east, {"west": west.url}, KNOWN)
    status, _, body = _raw(west.url, "GET", "/v1/peers/east/summary")
    assert status == 200 and body["summary"]["domain"] == {"id": 2, "name": "east"}


def test_a_push_from_a_domain_that_is_not_a_peer_is_refused(pair, east):
    west, _, _ = pair
    north = dataclasses.replace(east, domain="north", domain_id=3)
    with pytest.raises(PeeringError) as caught:
        PeeringClient(west.url, KNOWN).push("north", north)
    assert caught.value.status == 403 and "'north' is not a configured peer" in caught.value.reason
    assert west.peers.state("east").summary is None


def test_a_summary_pushed_under_another_peers_name_is_refused(pair, east):
    west, _, _ = pair
    with pytest.raises(PeeringError) as caught:
        PeeringClient(west.url, KNOWN).push("east", dataclasses.replace(east, domain_id=9))
    assert caught.value.status == 400 and "pushed as 'east' id 2" in caught.value.reason


def test_an_older_serial_is_refused(pair, east):
    west, _, _ = pair
    client = PeeringClient(west.url, KNOWN)
    client.push("east", dataclasses.replace(east, serial=5))
    client.push("east", dataclasses.replace(east, serial=5))  # the same again: harmless
    with pytest.raises(PeeringError) as caught:
        client.push("east", dataclasses.replace(east, serial=4))
    assert caught.value.status == 409
    assert west.peers.state("east").summary.serial == 5


def test_a_bad_summary_is_refused_with_every_problem(pair, east):
    west, _, _ = pair
    doc = json.loads(to_json(east))
    doc["partitions"][1]["id"] = 7
    doc["borders"][0]["latency_us"]["p50"] = -1
    status, _, body = _raw(west.url, "PUT", "/v1/peers/east/summary", json.dumps(doc).encode(),
                           {"Content-Type": "application/json"})
    assert status == 400
    fields = [p["field"] for p in body["error"]["problems"]]
    assert fields == ["partitions[1].id", "borders[0].latency_us.p50"]
    assert "unknown to this domain" in body["error"]["problems"][0]["reason"]
    assert west.peers.state("east").summary is None


def test_a_summary_served_by_a_peer_is_checked_by_the_client(pair, east):
    _, east_server, _ = pair
    # West knows no tenant-a: east's summary carries a partition west does not have.
    with pytest.raises(SummaryError) as caught:
        PeeringClient(east_server.url, known_partitions()).summary()
    assert caught.value.problems[0][0] == "partitions[1].id"
    assert caught.value.path == f"{east_server.url}/v1/summary"


@pytest.mark.parametrize("method,path,body,headers,status,words", [
    ("GET", "/v1/nothing", None, {}, 404, "no such resource"),
    ("GET", "/v1/peers/north/summary", None, {}, 404, "not a configured peer"),
    ("PUT", "/v1/peers/bad%20name/summary", b"{}", {"Content-Type": "application/json"}, 404, "no such resource"),
    ("PUT", "/v1/summary", b"{}", {"Content-Type": "application/json"}, 404, "no such resource"),
    ("PUT", "/v1/peers/east/summary", b"{}", {"Content-Type": "text/plain"}, 415, "Content-Type"),
    ("PUT", "/v1/peers/east/summary", b"{", {"Content-Type": "application/json"}, 400, "summary refused"),
    ("PUT", "/v1/peers/east/summary", None, {"Content-Type": "application/json"}, 411, "Content-Length"),
    ("PUT", "/v1/peers/east/summary", b"x", {"Content-Type": "application/json",
                                             "Content-Length": str(MAX_BODY_BYTES + 1)}, 413, "more than"),
    ("POST", "/v1/peers/east/summary", b"{}", {}, 405, "POST is not allowed"),
    ("DELETE", "/v1/summary", None, {}, 405, "DELETE is not allowed"),
])
def test_refusals_carry_their_status_and_reason(pair, method, path, body, headers, status, words):
    west, _, _ = pair
    got, answer_headers, answer = _raw(west.url, method, path, body, headers)
    assert got == status, answer
    assert answer["error"]["status"] == status and words in answer["error"]["reason"]
    assert answer_headers["Content-Type"] == "application/json"
    if status == 405:
        assert answer_headers["Allow"] in ("GET", "GET, PUT")


def test_no_summary_yet_is_503():
    with PeeringServer("west", PeerTable({"east": 2})) as server:
        status, _, body = _raw(server.url, "GET", "/v1/summary")
    assert status == 503 and "no summary yet" in body["error"]["reason"]


def test_the_server_binds_loopback_only():
    with pytest.raises(ValueError, match="loopback only"):
        PeeringServer("west", PeerTable({"east": 2}), host="0.0.0.0")


def test_a_server_publishes_only_its_own_domains_summary(east):
    server = PeeringServer("west", PeerTable({"east": 2}))
    try:
        with pytest.raises(ValueError, match="summary of domain 'east'"):
            server.set_summary(east)
    finally:
        server.close()


def test_an_unreachable_peer_is_reported_not_raised(east):
    server = PeeringServer("west", PeerTable({"east": 2}))
    url = server.url
    server.close()  # nothing listens there any more
    outcome = push_to_peers("east", east, {"west": url}, KNOWN)
    assert outcome["west"] is not None and outcome["west"].status is None
