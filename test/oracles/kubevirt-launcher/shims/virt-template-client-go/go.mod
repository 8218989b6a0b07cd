// Shim for kubevirt.io/virt-template-client-go v0.2.0, which the Go module
// proxy reachable from metalslice's machines does not serve. See ../../README.md.
module kubevirt.io/virt-template-client-go

go 1.24.0

require k8s.io/client-go v0.34.2
