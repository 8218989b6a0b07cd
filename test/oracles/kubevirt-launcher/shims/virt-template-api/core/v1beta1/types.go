// Package v1beta1 is a shim: the VirtualMachineTemplate types, with only the
// fields KubeVirt v1.9.0's own code reads. The informer factory names the type;
// virt-controller's VMExport controller (pkg/storage/export/export, compiled
// into cmd/virt-controller) reads the spec's embedded VM and parameters and
// the Ready condition. Neither runs in metalslice: the template informer is
// only started when virt-template and OCI export are enabled, which the test
// control plane never does.
package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// ConditionReady is the condition type a ready template reports.
const ConditionReady = "Ready"

type Parameter struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}

type VirtualMachineTemplateSpec struct {
	VirtualMachine *runtime.RawExtension `json:"virtualMachine,omitempty"`
	Parameters     []Parameter           `json:"parameters,omitempty"`
}

type VirtualMachineTemplateStatus struct {
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

type VirtualMachineTemplate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              VirtualMachineTemplateSpec   `json:"spec,omitempty"`
	Status            VirtualMachineTemplateStatus `json:"status,omitempty"`
}

func (in *VirtualMachineTemplate) DeepCopy() *VirtualMachineTemplate {
	if in == nil {
		return nil
	}
	out := &VirtualMachineTemplate{TypeMeta: in.TypeMeta}
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Spec.VirtualMachine != nil {
		out.Spec.VirtualMachine = in.Spec.VirtualMachine.DeepCopy()
	}
	out.Spec.Parameters = append([]Parameter(nil), in.Spec.Parameters...)
	for i := range in.Status.Conditions {
		c := metav1.Condition{}
		in.Status.Conditions[i].DeepCopyInto(&c)
		out.Status.Conditions = append(out.Status.Conditions, c)
	}
	return out
}

func (in *VirtualMachineTemplate) DeepCopyObject() runtime.Object {
	if in == nil {
		return nil
	}
	return in.DeepCopy()
}
