// Shim for kubevirt.io/virt-template-api v0.2.0, which the Go module proxy
// reachable from metalslice's machines does not serve. See ../../README.md.
module kubevirt.io/virt-template-api

go 1.24.0

require k8s.io/apimachinery v0.34.2
