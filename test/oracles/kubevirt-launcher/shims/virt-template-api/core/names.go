// Package api is a shim: only the names KubeVirt's pkg/controller and
// pkg/storage/admitters reference (informer/index keys and the VMExport API
// group check). None of it is on the launcher-pod rendering path.
package api

const (
	GroupName            = "template.kubevirt.io"
	SingularResourceName = "virtualmachinetemplate"
	PluralResourceName   = SingularResourceName + "s"
)
