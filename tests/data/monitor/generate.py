"""Writes the Azure Monitor test exports in this folder from the first operations of
fixtures/multitenant/queries.ndjson, in every shape pkadvisor reads, and the equivalent
NDJSON log (one operation a line, each with its observed charge). Deterministic: run it
from the repository root to rewrite them (python3 tests/data/monitor/generate.py).

Columns follow the Azure Monitor table reference (CDBDataPlaneRequests,
CDBQueryRuntimeStatistics, CDBPartitionKeyRUConsumption, CDBPartitionKeyStatistics) and the
legacy AzureDiagnostics table; no row is copied from a real log."""
import csv, io, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
OPS = 150


def source_ops():
    out = []
    for line in open("fixtures/multitenant/queries.ndjson"):
        if not line.startswith("{"):
            continue
        o = json.loads(line)
        if o["op"] == "batch":
            continue
        out.append(o)
        if len(out) == OPS:
            break
    return out


def charge(i, op):
    base = {"query": 3.0, "read": 1.0, "create": 6.2, "upsert": 10.4, "replace": 10.4, "patch": 10.1, "delete": 6.0}[op]
    return round(base + (i % 5) * 0.5, 2)


def rows_and_equivalent():
    rows, eq = [], []
    for i, o in enumerate(source_ops()):
        t = o["ts"]
        act = "00000000-0000-4000-8000-%012d" % i
        op = o["op"]
        ru = charge(i, op)
        e = {k: v for k, v in o.items() if k not in ("count",)}
        e["ru"] = ru
        if op == "query":
            text = json.dumps({"query": o["sql"], "parameters": o.get("parameters", [])})
            pages = 2 if i % 7 == 0 else 1
            corr = "11111111-0000-4000-8000-%012d" % i
            for p in range(pages):
                a = "33333333-0000-4000-8000-%012d" % (i * 10 + p)
                rows.append({"table": "QueryStats", "TimeGenerated": t, "ActivityId": a,
                             "CorrelatedActivityId": corr, "QueryText": text, "PartitionKeyRangeId": "0"})
                rows.append({"table": "DataPlane", "TimeGenerated": t, "ActivityId": a, "OperationName": "Query",
                             "RequestCharge": round(ru / pages, 4), "StatusCode": 429 if i % 25 == 3 else 200,
                             "RequestLength": 0, "PartitionId": "0"})
        else:
            known = o.get("known") or {}
            doc = o.get("doc") or {}
            tenant = known.get("/tenantId", doc.get("tenantId"))
            user = known.get("/userId", doc.get("userId"))
            name = op[0].upper() + op[1:]
            rows.append({"table": "DataPlane", "TimeGenerated": t, "ActivityId": act, "OperationName": name,
                         "RequestCharge": ru, "StatusCode": 200,
                         "RequestLength": len(json.dumps(doc, separators=(",", ":"))) if doc else 0, "PartitionId": "0"})
            rows.append({"table": "KeyRu", "TimeGenerated": t, "ActivityId": act, "OperationName": name,
                         "RequestCharge": ru, "PartitionKey": json.dumps([tenant, user]), "PartitionKeyRangeId": "0"})
            if op in ("read", "patch", "delete"):
                e["id"] = ""
                e["known"] = {"/tenantId": tenant, "/userId": user}
        eq.append(e)
    # A request with no statistics row (no text), and a page with no request row.
    rows.append({"table": "DataPlane", "TimeGenerated": "2026-11-15T10:00:00Z", "ActivityId": "22222222-0000-4000-8000-000000000001",
                 "OperationName": "Query", "RequestCharge": 5.0, "StatusCode": 200, "RequestLength": 0, "PartitionId": "0"})
    rows.append({"table": "QueryStats", "TimeGenerated": "2026-11-15T10:00:01Z", "ActivityId": "22222222-0000-4000-8000-000000000002",
                 "CorrelatedActivityId": "22222222-0000-4000-8000-000000000002",
                 "QueryText": json.dumps({"query": "SELECT * FROM c WHERE c.tenantId = @t", "parameters": [{"name": "@t", "value": "contoso"}]}),
                 "PartitionKeyRangeId": "0"})
    eq.append({"op": "query", "ts": "2026-11-15T10:00:01Z", "sql": "SELECT * FROM c WHERE c.tenantId = @t",
               "parameters": [{"name": "@t", "value": "contoso"}]})
    for k, (tenant, kb) in enumerate([("contoso", 9_500_000), ("fabrikam", 4_200_000), ("northwind", 1_100_000)]):
        rows.append({"table": "KeyStats", "TimeGenerated": "2026-11-15T10:00:00Z",
                     "PartitionKey": json.dumps([tenant, "u-%d" % k]), "SizeKb": kb})
    return rows, eq


TYPES = {"DataPlane": ("CDBDataPlaneRequests", "DataPlaneRequests"),
         "QueryStats": ("CDBQueryRuntimeStatistics", "QueryRuntimeStatistics"),
         "KeyRu": ("CDBPartitionKeyRUConsumption", "PartitionKeyRUConsumption"),
         "KeyStats": ("CDBPartitionKeyStatistics", "PartitionKeyStatistics")}
COLUMNS = ["TimeGenerated", "Type", "ActivityId", "CorrelatedActivityId", "OperationName", "RequestCharge",
           "StatusCode", "RequestLength", "QueryText", "PartitionKey", "SizeKb", "PartitionKeyRangeId", "PartitionId"]


def resource_specific(rows):
    out = []
    for r in rows:
        row = {"TimeGenerated": r["TimeGenerated"], "Type": TYPES[r["table"]][0]}
        row.update({k: v for k, v in r.items() if k not in ("table", "TimeGenerated")})
        out.append(row)
    return out


def azure_diagnostics(rows):
    suffix = {"ActivityId": "_g", "CorrelatedActivityId": "_g", "RequestCharge": "_s", "StatusCode": "_s",
              "RequestLength": "_d", "QueryText": "_s", "PartitionKey": "_s", "SizeKb": "_d",
              "PartitionKeyRangeId": "_s", "PartitionId": "_g"}
    out = []
    for r in rows:
        row = {"TimeGenerated": r["TimeGenerated"], "Category": TYPES[r["table"]][1], "ResourceProvider": "MICROSOFT.DOCUMENTDB"}
        lower = r["table"] == "QueryStats"  # casing differs by category
        for k, v in r.items():
            if k in ("table", "TimeGenerated"):
                continue
            if k == "OperationName":
                row["OperationName"] = v
                row["operationType_s"] = v
                continue
            name = k[0].lower() + k[1:]
            if lower:
                name = name.lower()
            row[name + suffix[k]] = str(v) if suffix[k] == "_s" and not isinstance(v, str) else v
        out.append(row)
    return out


def storage(rows):
    out = []
    for r in rows:
        props = {}
        for k, v in r.items():
            if k in ("table", "TimeGenerated", "OperationName"):
                continue
            name = k[0].lower() + k[1:]
            if r["table"] == "QueryStats":
                name = name.lower()
            props[name] = ("%.6f" % v if isinstance(v, float) else str(v)) if not isinstance(v, str) else v
        out.append({"time": r["TimeGenerated"], "resourceId": "/SUBSCRIPTIONS/0000/RESOURCEGROUPS/RG/PROVIDERS/MICROSOFT.DOCUMENTDB/DATABASEACCOUNTS/SHOP",
                    "category": TYPES[r["table"]][1], "operationName": r.get("OperationName", "Query"), "properties": props})
    return out


def main():
    rows, eq = rows_and_equivalent()
    w = lambda name, text: open(os.path.join(HERE, name), "w").write(text)
    w("resource-specific.json", json.dumps(resource_specific(rows), indent=1) + "\n")
    buf = io.StringIO()
    wr = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\r\n")
    wr.writeheader()
    for r in resource_specific(rows):
        wr.writerow(r)
    w("resource-specific.csv", buf.getvalue())
    w("azure-diagnostics.json", json.dumps(azure_diagnostics(rows), indent=1) + "\n")
    w("storage.json", "".join(json.dumps(r) + "\n" for r in storage(rows)))
    recs = storage(rows)
    w("eventhubs.json", "".join(json.dumps({"records": recs[i:i + 50]}) + "\n" for i in range(0, len(recs), 50)))
    w("equivalent.ndjson", "".join(json.dumps(e) + "\n" for e in eq))
    # Obfuscated text: the same queries with their values hidden.
    ob = []
    for r in resource_specific(rows):
        if r["Type"] == "CDBQueryRuntimeStatistics":
            q = json.loads(r["QueryText"])
            for p in q["parameters"]:
                p["value"] = "***" if p["name"] != "@type" else None
            r = dict(r, QueryText=json.dumps(q))
        ob.append(r)
    w("obfuscated.json", json.dumps(ob, indent=1) + "\n")


main()
