"""A real MCP client (the official Python SDK, `mcp` on PyPI) against a running
`case_agent` program built with `hotpath-mcp`, over Streamable HTTP and over the
`hotpath mcp` stdio bridge. Run by tests/mcp_clients.rs; exits non-zero on the
first failed check and prints what it saw.

    python client.py --url http://127.0.0.1:PORT/mcp --token T --pid PID --bridge path/to/hotpath
"""

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from urllib.parse import urlparse

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError

# One tool per section of the model's table, passed by the Rust test that runs this
# script (tests/mcp_clients.rs), so no copy of the section list lives here.
SECTION_TOOLS = os.environ["HOTPATH_TEST_SECTION_KEYS"].split(",")
OTHER_TOOLS = ["function_detail", "hotspots", "mark", "changes_since_mark", "profiler_status", "debug_logs", "row_logs",
               "timeline"]
# Sections the agent program fills, and a row each has (functions_alloc with --alloc only).
WITH_DATA = {
    "functions_timing": "case_agent::fetch", "functions_alloc": "case_agent::encode", "io": "log",
    "channels": "results", "streams": "numbers", "futures": "fetch", "mutexes": "totals",
    "rw_locks": "scale", "threads": "tokio-rt-worker", "debug": "last-fetch",
}

checks = 0


class Failed(Exception):
    pass


def check(ok, what, seen=None):
    global checks
    if not ok:
        print(f"FAILED: {what}\n  seen: {seen!r}"[:4000], file=sys.stderr)
        raise Failed(what)
    checks += 1


def text_of(result):
    return " ".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def tool_error(client, name, arguments, mentions):
    """A call the server must answer with an isError result whose text names the problem."""
    result = await client.call_tool(name, arguments)
    check(result.is_error, f"{name}({arguments}) is a tool error", result)
    check(mentions in text_of(result), f"{name}({arguments}) error mentions {mentions!r}", text_of(result))


async def protocol_error(call, what, code):
    try:
        await call
    except MCPError as e:
        check(e.code == code, f"{what}: error code {code}", (e.code, e.message))
        return e.message
    check(False, f"{what} raises an MCP error")


async def scenario(client, args, transport, version="2026-07-28"):
    pid = args.pid
    check(client.protocol_version == version, f"protocol revision {version}", client.protocol_version)
    check(client.server_info is not None and client.server_info.name == "hotpath", "server info", client.server_info)
    print(f"[{transport}] protocol {client.protocol_version}")

    tools = {t.name: t for t in (await client.list_tools()).tools}
    check(sorted(tools) == sorted(SECTION_TOOLS + OTHER_TOOLS), "the tool list", sorted(tools))
    for name in SECTION_TOOLS:
        props = tools[name].input_schema.get("properties", {})
        check({"sort_by", "limit", "filter"} <= set(props), f"{name} takes sort_by, limit, filter", props)
        check(tools[name].description, f"{name} is described")
    check(tools["function_detail"].input_schema.get("required") == ["name"], "function_detail requires name",
          tools["function_detail"].input_schema)

    # Every section tool, bare.
    for name in SECTION_TOOLS:
        result = await client.call_tool(name, {})
        data = result.structured_content
        check(not result.is_error and data is not None, f"{name} answers", result)
        check(data["section"] == name, f"{name} names its section", data)
        if name == "functions_alloc" and not args.alloc or name == "functions_cpu":
            # Off, or on with samples still to come: either way the tool answers plainly.
            if args.cpu and name == "functions_cpu" and data.get("available") is not False:
                check(isinstance(data["data"]["rows"], list), "functions_cpu rows", data)
            else:
                check(data.get("available") is False and data.get("reason"), f"{name} says why it is empty", data)
        elif name in WITH_DATA:
            names = [r.get("name", r.get("thread_name")) for r in data["data"]["rows"]]
            check(any(WITH_DATA[name] in str(n) for n in names), f"{name} has {WITH_DATA[name]}", names)
            check(text_of(result).startswith(f"{name}: "), f"{name} has a text summary", text_of(result))

    # Query parameters.
    result = await client.call_tool("functions_timing", {"sort_by": "calls", "limit": 1, "filter": "encode"})
    rows = result.structured_content["data"]["rows"]
    check(len(rows) == 1 and rows[0]["name"] == "case_agent::encode", "filter + limit", rows)
    result = await client.call_tool("functions_timing", {"sort_by": "total_ns", "limit": 3})
    totals = [r["total_ns"] for r in result.structured_content["data"]["rows"]]
    check(totals == sorted(totals, reverse=True) and len(totals) == 3, "sort_by total_ns, descending", totals)
    check(result.structured_content["data"]["rows"][0]["name"] == "case_agent::fetch", "fetch has most total time",
          result.structured_content)

    # function_detail, exact and by unique substring.
    result = await client.call_tool("function_detail", {"name": "case_agent::parse"})
    detail = result.structured_content
    check(not result.is_error and detail["functions_timing"]["calls"] > 0, "function_detail timing", detail)
    check(("functions_alloc" in detail) == args.alloc, "function_detail carries allocations", detail)
    result = await client.call_tool("function_detail", {"name": "fetch"})
    check(result.structured_content["name"] == "case_agent::fetch", "function_detail by substring",
          result.structured_content)
    check("futures" in result.structured_content, "an async function's detail carries its future row",
          result.structured_content)

    # hotspots: short, ranked.
    result = await client.call_tool("hotspots", {"limit": 3})
    spots = result.structured_content["hotspots"]
    check(1 <= len(spots) <= 3 and all({"section", "name", "metric", "why"} <= set(s) for s in spots), "hotspots", spots)
    check(len(text_of(result)) < 2000, "hotspots text is short", text_of(result))

    # mark, then what changed.
    mark = f"{transport}-mark"
    result = await client.call_tool("mark", {"name": mark})
    check(not result.is_error and mark in result.structured_content["marks"], "mark", result)
    before = await client.call_tool("function_detail", {"name": "case_agent::encode"})
    calls_before = before.structured_content["functions_timing"]["calls"]
    for _ in range(100):
        await asyncio.sleep(0.1)
        now = await client.call_tool("function_detail", {"name": "case_agent::encode"})
        if now.structured_content["functions_timing"]["calls"] > calls_before:
            break
    result = await client.call_tool("changes_since_mark", {"name": mark, "limit": 5})
    changes = result.structured_content
    timing = changes["sections"].get("functions_timing", {})
    moved = {r["name"]: r for r in timing.get("rows", [])}
    check("case_agent::encode" in moved and moved["case_agent::encode"]["delta"]["calls"] > 0,
          "changes_since_mark sees new calls", changes)
    check(changes["elapsed_ns"] > 0 and "Since mark" in text_of(result), "changes summary", text_of(result))

    # debug_logs: the trackers, then one tracker's records, filtered.
    listed = (await client.call_tool("debug_logs", {})).structured_content["trackers"]
    check({"kind": "val", "name": "last-fetch"}.items() <= next((t for t in listed if t["name"] == "last-fetch"), {}).items(),
          "debug_logs lists the trackers", listed)
    result = await client.call_tool("debug_logs", {"tracker": "last-fetch", "limit": 3})
    logs = result.structured_content
    check(not result.is_error and logs["kind"] == "val" and 1 <= len(logs["logs"]) <= 3 and logs["total"] >= 1,
          "debug_logs returns a tracker's records", logs)
    wanted = logs["logs"][0]["value"]
    filtered = (await client.call_tool("debug_logs", {"tracker": "last-fetch", "filter": wanted})).structured_content
    check(all(wanted in l["value"] for l in filtered["logs"]) and filtered["logs"], "debug_logs filters by text", filtered)
    result = await client.call_tool("debug_logs", {"tracker": "round", "kind": "gauge"})
    check(result.structured_content["logs"][0]["op"] == "set", "a gauge's records", result.structured_content)
    await tool_error(client, "debug_logs", {"tracker": "no_such_tracker_zz"}, "no_such_tracker_zz")
    await tool_error(client, "debug_logs", {"kind": "meter"}, "meter")

    # row_logs: the log = true rows, then one row's values, filtered.
    listed = (await client.call_tool("row_logs", {})).structured_content["rows"]
    parse = next((r for r in listed if r["name"] == "case_agent::parse"), {})
    check(parse.get("section") == "functions_timing" and parse.get("total", 0) >= 1, "row_logs lists logged rows", listed)
    result = await client.call_tool("row_logs", {"row": "case_agent::parse", "limit": 3})
    logs = result.structured_content
    check(not result.is_error and logs["section"] == "functions_timing" and 1 <= len(logs["logs"]) <= 3
          and logs["total"] >= len(logs["logs"]) and logs["logs"][0]["value"].isdigit(), "row_logs returns a row's values", logs)
    wanted = logs["logs"][0]["value"]
    filtered = (await client.call_tool("row_logs", {"row": "parse", "filter": f"/^{wanted}$/"})).structured_content
    check(filtered["logs"] and all(l["value"] == wanted for l in filtered["logs"]), "row_logs filters by text", filtered)
    await tool_error(client, "row_logs", {"row": "no_such_row_zz"}, "no_such_row_zz")
    await tool_error(client, "row_logs", {"section": "threads"}, "keeps no logs")

    await check_timeline(client)

    # profiler_status and the report resource.
    status = (await client.call_tool("profiler_status", {})).structured_content
    check(status["pid"] == pid and "functions_timing" in status["sections"], "profiler_status", status)
    resources = (await client.list_resources()).resources
    check([str(r.uri) for r in resources] == ["hotpath://report"], "one resource: the report", resources)
    contents = (await client.read_resource("hotpath://report")).contents
    report = json.loads(contents[0].text)
    check(contents[0].mime_type == "application/json", "the report is JSON", contents[0].mime_type)
    check(report["meta"]["pid"] == pid and "channels" in report, "the report resource", list(report))

    # Bad input: errors, and the server keeps answering.
    message = await protocol_error(client.call_tool("no_such_tool", {}), "unknown tool", -32602)
    check("no_such_tool" in message, "unknown tool named", message)
    # A resource that does not exist: -32002 until 2025-11-25, invalid params since 2026-07-28.
    missing = -32002 if client.protocol_version <= "2025-11-25" else -32602
    await protocol_error(client.read_resource("hotpath://nope"), "unknown resource", missing)
    await tool_error(client, "functions_timing", {"limit": "ten"}, "invalid type")
    await tool_error(client, "functions_timing", {"sort_by": "no_such_field"}, "no_such_field")
    await tool_error(client, "functions_timing", {"bogus": 1}, "bogus")
    await tool_error(client, "function_detail", {"name": "no_such_function_zz"}, "no_such_function_zz")
    await tool_error(client, "function_detail", {}, "name")
    await tool_error(client, "function_detail", {"name": "case_agent"}, "matches")
    await tool_error(client, "hotspots", {"limit": 0}, "limit")
    await tool_error(client, "changes_since_mark", {"name": "never-marked"}, "never-marked")
    status = (await client.call_tool("profiler_status", {})).structured_content
    check(status["pid"] == pid, "still answering after bad input", status)


async def check_timeline(client):
    """The timeline tool (the agent runs with HOTPATH_TIMELINE=on): a trace file and its summary."""
    result = await client.call_tool("timeline", {})
    check(not result.is_error, "timeline answers", text_of(result))
    data = result.structured_content
    with open(data["path"], "rb") as f:
        perfetto = f.read()
    os.remove(data["path"])
    check(data["format"] == "perfetto" and perfetto[:1] == b"\x0a", "a Perfetto file by default", data)
    check(len(perfetto) == data["bytes"] and data["events"] > 0 and data["threads"] > 0, "its counts", data)
    check(data["path"] in text_of(result), "the text names the file", text_of(result))

    name = f"hotpath-agent-{os.getpid()}-{time.time_ns()}.json"
    path = os.path.join(tempfile.gettempdir(), name)
    result = await client.call_tool("timeline", {"seconds": 60, "format": "json", "path": name})
    data = result.structured_content
    check(not result.is_error and data["path"] == path, "timeline writes the name given in the temp dir", text_of(result))
    check(os.stat(path).st_mode & 0o077 == 0, "readable by its owner only", oct(os.stat(path).st_mode))
    with open(path) as f:
        trace = json.load(f)
    os.remove(path)
    threads = {e["tid"]: e["args"]["name"] for e in trace["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
    begun = {(e["name"], threads.get(e["tid"])) for e in trace["traceEvents"] if e["ph"] == "B"}
    check(any(name.startswith("case_agent::") for name, _ in begun), "measured calls in the trace", sorted(begun)[:20])
    slices = data["longest_slices"]
    durations = [s["duration_ns"] for s in slices]
    check(slices and durations == sorted(durations, reverse=True), "longest slices, longest first", slices)
    check(all((s["name"], s["thread"]) in begun for s in slices), "each slice is in the file, on its thread", slices)

    await tool_error(client, "timeline", {"seconds": -1}, "seconds")
    await tool_error(client, "timeline", {"seconds": "soon"}, "seconds")
    await tool_error(client, "timeline", {"format": "xml"}, "format")
    await tool_error(client, "timeline", {"bogus": 1}, "bogus")
    await tool_error(client, "timeline", {"path": "/no/such/dir/t.pftrace"}, "path")
    await tool_error(client, "timeline", {"path": "../escape.json"}, "path")
    await tool_error(client, "timeline", {"path": ""}, "path")
    # An existing file is never replaced.
    with tempfile.NamedTemporaryFile(suffix=".json") as existing:
        await tool_error(client, "timeline", {"path": os.path.basename(existing.name)}, "exists")
        check(os.path.getsize(existing.name) == 0, "the existing file is left alone", existing.name)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--bridge", required=True)
    parser.add_argument("--alloc", action="store_true", help="the program was built with hotpath-alloc")
    parser.add_argument("--cpu", action="store_true", help="the program was built with hotpath-cpu")
    args = parser.parse_args()

    # Without the token, the server refuses before MCP starts: the SDK fails to connect,
    # and the HTTP answer is a 401.
    try:
        async with Client(args.url, cache=None) as client:
            await client.list_tools()
        check(False, "a client without the token is refused")
    except Exception as e:  # the SDK wraps the HTTP error in exception groups
        check("error" in repr(e).lower(), "the SDK reports the refusal", repr(e))
    async with create_mcp_http_client() as raw:
        response = await raw.post(args.url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        check(response.status_code == 401, "no token: 401", response.status_code)

    http = create_mcp_http_client(headers={"Authorization": f"Bearer {args.token}"})
    async with Client(streamable_http_client(args.url, http_client=http), cache=None) as client:
        await scenario(client, args, "http")

    port = urlparse(args.url).port
    bridge = StdioServerParameters(command=args.bridge, args=["mcp", "--port", str(port), "--token", args.token])
    async with Client(bridge, cache=None) as client:
        await scenario(client, args, "stdio")
    # A client of the previous revision (initialize handshake) through the bridge.
    async with Client(bridge, cache=None, mode="legacy") as client:
        await scenario(client, args, "stdio-legacy", version="2025-11-25")

    print(f"ok: {checks} checks")


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except BaseException as e:  # a failed check inside the SDK's task groups arrives wrapped
        failed = isinstance(e, Failed) or (isinstance(e, BaseExceptionGroup) and e.subgroup(Failed) is not None)
        if not failed:
            raise
        sys.exit(1)
