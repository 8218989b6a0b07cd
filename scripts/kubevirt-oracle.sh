#!/usr/bin/env bash
# The KubeVirt launcher-pod oracle, test/oracles/kubevirt-launcher: runs KubeVirt v1.9.0's own webhooks,
# VM->VMI conversion and virt-launcher pod renderer and prints the pod's requests/limits as kube-scheduler
# counts them. Built and cached by scripts/go-oracle.sh; prints the binary's path.
#
# The same `go build` of the same module graph also writes, beside the oracle: KubeVirt's own virt-api and
# virt-controller (cmd/virt-api, cmd/virt-controller), which the e2e harness and `metalslice verify --kubevirt`
# run as local processes, and kubevirt-install (test/oracles/kubevirt-launcher/cmd/kubevirt-install), which
# prints the CRDs, RBAC and webhook configurations virt-operator's code generates for them.
#
# Usage: scripts/kubevirt-oracle.sh [--print-path]
# Timings (2 cores, module cache already downloaded, empty Go build cache): the oracle alone was 7-12 min cold
# (11.4 min wall while sharing the cores with another build and jest); downloading the modules first adds
# ~1 min. With virt-api, virt-controller and kubevirt-install: see the cold-build figures in CHANGELOG.md
# (0.2.0). Warm (sources unchanged): 0.2 s. Disk: ~380 MB of binaries, ~1.5 GB Go build cache.
export GO_ORACLE_ALSO="./cmd/kubevirt-install kubevirt.io/kubevirt/cmd/virt-api kubevirt.io/kubevirt/cmd/virt-controller"
exec bash "$(dirname "${BASH_SOURCE[0]}")/go-oracle.sh" kubevirt-launcher kubevirt-oracle v1.9.0 kubevirt-launcher-oracle "$@"
