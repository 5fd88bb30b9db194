#!/usr/bin/env bash
# Records the binary's outputs on every fixture, format and command into OUTDIR, one file per
# run (stdout, then stderr, then the exit code), so that a change meant to move code only can
# be checked byte for byte:  contrib/outputs.sh BIN before/ ... contrib/outputs.sh BIN after/
# && diff -r before after. Run from the checkout's root.
set -uo pipefail
bin=${1:?usage: contrib/outputs.sh BIN OUTDIR}
out=${2:?usage: contrib/outputs.sh BIN OUTDIR}
mkdir -p "$out"
n=0
rec() { # NAME ARGS...: one run of the binary
    local name=$1; shift
    n=$((n + 1))
    { "$bin" "$@" 2>"$out/$name.err"; echo "exit $?" >>"$out/$name.err"; } >"$out/$name.out"
}
sets="iot layouts multitenant nutrition profiles"
for s in $sets; do
    d=fixtures/$s/docs.ndjson q=fixtures/$s/queries.ndjson
    rec "$s-table" analyze "$d" --queries "$q" --quiet
    rec "$s-wide" analyze "$d" --queries "$q" --wide --color always --redact --quiet
    rec "$s-json" analyze "$d" --queries "$q" --format json --quiet
    rec "$s-md" analyze "$d" --queries "$q" --format markdown --quiet
    rec "$s-html" analyze "$d" --queries "$q" --format html --quiet
    rec "$s-nolog" analyze "$d" --format json --quiet
    rec "$s-small" analyze "$d" --queries "$q" --format json --target-storage 50GB --throughput 4000 --quiet
    rec "$s-mem" analyze "$d" --queries "$q" --format json --memory 2MB --quiet
    rec "$s-autoscale" analyze "$d" --queries "$q" --format json --autoscale-max 40000 --quiet
    rec "$s-check-id" check "$d" --queries "$q" --key /id --quiet
    rec "$s-check-id-md" check "$d" --queries "$q" --key /id --format markdown --quiet
    top=$("$bin" analyze "$d" --queries "$q" --format json --quiet 2>/dev/null |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["candidates"][0]["key"]["spec"])')
    rec "$s-explain" analyze "$d" --queries "$q" --explain "$top" --as-of 2026-12-01 --quiet
    rec "$s-explain-md" analyze "$d" --queries "$q" --explain "$top" --as-of 2026-12-01 --format markdown --quiet
    rec "$s-explain-wide" analyze "$d" --queries "$q" --explain "$top" --as-of 2026-12-01 --wide --redact --quiet
    rec "$s-explain-json" analyze "$d" --queries "$q" --explain "$top" --as-of 2026-12-01 --format json --quiet
    rec "$s-check-top" check "$d" --queries "$q" --key "$top" --format json --quiet
    rec "$s-timeline" analyze "$d" --queries "$q" --growth 5GB/1d --as-of 2026-12-01 --format json --quiet
    rm -f "$out/$s.profile"
    rec "$s-profile" profile "$d" --key "$top" --key /id -o "$out/$s.profile" --quiet
    rec "$s-from-profile" analyze --profile "$out/$s.profile" --queries "$q" --format json --quiet
done
rec mt-layout analyze fixtures/layouts/docs.ndjson --queries fixtures/layouts/queries.ndjson --key /customerId --layout lookup:/region=fixtures/layouts/regions.json --layout spillover:20GB --target-storage 60GB --format json --quiet
rec mt-retention analyze fixtures/multitenant/docs.ndjson --queries fixtures/multitenant/queries.ndjson --retention 30d --format json --quiet
rec mt-gsi analyze fixtures/multitenant/docs.ndjson --queries fixtures/multitenant/queries.ndjson --current-key /tenantId,/userId --format json --quiet
for f in tests/data/infra/*.json; do
    b=$(basename "$f" .json)
    rec "check-$b" check fixtures/multitenant/docs.ndjson --queries fixtures/multitenant/queries.ndjson --container "$f" --quiet
    rec "check-$b-json" check fixtures/multitenant/docs.ndjson --queries fixtures/multitenant/queries.ndjson --container "$f" --format json --quiet
    rec "check-$b-events" check fixtures/multitenant/docs.ndjson --queries fixtures/multitenant/queries.ndjson --container "$f" --container-name events-db/events --quiet
done
# The public artefacts beside the repository, when present: templates with a time to live,
# shared database throughput, parameters files, a Terraform module.
real=../shared/real
if [ -d "$real" ]; then
    p=$real/docs/cosmicworks-v4-product.json q=$real/queries/cosmicworks-product-queries.ndjson
    for f in $real/infra/*.json $real/infra/*.tf; do
        b=$(basename "$f")
        rec "real-check-$b" check "$p" --queries "$q" --container "$f" --format json --quiet
        rec "real-check-$b-md" check "$p" --queries "$q" --container "$f" --key /categoryId --format markdown --quiet
    done
    rec real-params check "$p" --container $real/infra/quickstart-multiple-containers.azuredeploy.json \
        --parameters $real/infra/quickstart-multiple-containers.azuredeploy.parameters.json --container-name MyContainer1 --quiet
    rec real-retention check "$p" --container $real/infra/quickstart-cosmosdb-sql.azuredeploy.json --retention 30d --format json --quiet
    rec real-policy check "$p" --container $real/infra/quickstart-cosmosdb-sql.azuredeploy.json --indexing-policy $real/infra/cosmicworks-config.json --quiet
    rec real-analyze analyze "$p" --queries "$q" --format json --quiet
fi
for f in tests/data/monitor/*.json tests/data/monitor/*.csv; do
    b=$(basename "$f")
    rec "monitor-$b" analyze fixtures/multitenant/docs.ndjson --queries "$f" --current-key /tenantId,/userId --format json --quiet
done
for f in fixtures/bad/*; do
    rec "bad-$(basename "$f")" analyze "$f" --quiet
done
# Two bad flags at once: which error comes first is output too.
d=fixtures/multitenant/docs.ndjson
policy=${TMPDIR:-/tmp}/pkadvisor-outputs-bad-policy.json
printf '{"includedPaths":[{"path":"/a"}]}' >"$policy"
i=0
for late in "--growth bogus" "--retention x" "--as-of 2026-13-01" "--start-storage 0" "--indexing-policy $policy"; do
    for early in "--explain /nope(" "--memory zz" "--layout bogus" "--log-share 5" "--multi-region-writes" "--key /a --key /b"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        rec "two-bad-analyze-$i" analyze $d $early $late --quiet
        # shellcheck disable=SC2086
        rec "two-bad-check-$i" check $d $early $late --quiet
    done
done
rec epk epk '"contoso"' 42 true '["a"]'
rec epk-text epk '"contoso"'
echo "$n runs recorded in $out" >&2
