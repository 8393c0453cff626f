"""The verdict on one pip-audit run for .ci/run: vulnerable (exit 1), unreachable (a line
saying so, exit 0), or clean. Arguments: pip-audit's exit status, its JSON report, its stderr,
the requirements file audited."""

import json, re, sys

status, report_path, errors_path, requirements = int(sys.argv[1]), *sys.argv[2:]
errors = open(errors_path).read()


def fail(line):
    print(line, flush=True)
    sys.exit(1)


try:
    dependencies = json.load(open(report_path))["dependencies"]
except (ValueError, KeyError):
    dependencies = None
if dependencies == []:
    fail(f"== audit: FAILED: {requirements} holds no pins")
if dependencies is None:  # no report: pip-audit stopped on an error
    network = (
        r"requests\.exceptions\.(ConnectionError|ProxyError|SSLError|ConnectTimeout|ReadTimeout"
        r"|Timeout|TooManyRedirects)|HTTPError: 5\d\d|Could not connect|not redirecting properly"
    )
    last = errors.strip().splitlines()[-1:] or [f"exit status {status}"]
    if re.search(network, errors):
        print(f"   {last[0][:300]}")
        print("== audit: skipped: vulnerability service unreachable")
        sys.exit(0)
    print(errors[-4000:], end="")
    fail(f"== audit: FAILED: pip-audit gave no report ({last[0][:200]})")
vulnerable = [d for d in dependencies if d.get("vulns")]
skipped = [d for d in dependencies if "skip_reason" in d]
for d in vulnerable:
    for v in d["vulns"]:
        aliases = ", ".join(v.get("aliases") or []) or "-"
        fixed = ", ".join(v.get("fix_versions") or []) or "no fixed release"
        print(f"   {d['name']} {d['version']}: {v['id']} ({aliases}); fixed in {fixed}")
if vulnerable:
    count = sum(len(d["vulns"]) for d in vulnerable)
    noun = "vulnerability" if count == 1 else "vulnerabilities"
    fail(f"== audit: FAILED: {count} known {noun} in {len(vulnerable)} of "
         f"{len(dependencies)} pins of {requirements}")
if status != 0:
    fail(f"== audit: FAILED: pip-audit exited {status}: {errors.strip()[-300:]}")
if skipped and len(skipped) == len(dependencies) and all(
    "not found on PyPI" in d["skip_reason"] for d in skipped
):
    print("== audit: skipped: vulnerability service unreachable (it has no record of any of the "
          f"{len(dependencies)} pins of {requirements}, so none could be judged)")
elif skipped:
    for d in skipped:
        print(f"   {d['name']}: {d['skip_reason']}")
    fail(f"== audit: FAILED: {len(skipped)} of {len(dependencies)} pins could not be audited")
else:
    print(f"== audit: {len(dependencies)} pins of {requirements}, no known vulnerabilities")
