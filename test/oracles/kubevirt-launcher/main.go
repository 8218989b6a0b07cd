package main

import (
	_ "k8s.io/component-helpers/resource"
	_ "kubevirt.io/kubevirt/pkg/testutils"
	_ "kubevirt.io/kubevirt/pkg/virt-controller/services"
	_ "kubevirt.io/kubevirt/pkg/virt-controller/watch/vm"
	_ "kubevirt.io/kubevirt/pkg/virt-api/webhooks/mutating-webhook/mutators"
	_ "kubevirt.io/kubevirt/pkg/virt-api/webhooks/validating-webhook/admitters"
	_ "kubevirt.io/kubevirt/pkg/network/resources"
	_ "kubevirt.io/kubevirt/pkg/network/netbinding"
	_ "kubevirt.io/kubevirt/pkg/network/pod/annotations"
	_ "kubevirt.io/kubevirt/pkg/storage/pod/annotations"
	_ "kubevirt.io/kubevirt/pkg/storage/cbt"
	_ "kubevirt.io/kubevirt/pkg/hooks"
	_ "kubevirt.io/kubevirt/pkg/virt-operator/util"
)

func main() {}
