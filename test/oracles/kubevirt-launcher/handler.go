package main

import (
	"encoding/json"

	k8sv1 "k8s.io/api/core/v1"
	resourcehelper "k8s.io/component-helpers/resource"

	v1 "kubevirt.io/api/core/v1"

	"kubevirt.io/kubevirt/pkg/virt-operator/resource/generate/components"
	operatorutil "kubevirt.io/kubevirt/pkg/virt-operator/util"
)

// virtHandler renders, with virt-operator's own code, the virt-handler
// DaemonSet KubeVirt installs for the given KubeVirt CR, and returns what one
// of its pods asks of a host as kube-scheduler counts it: the pod's requests
// (after the API server's requests-from-limits defaulting), its tolerations
// and the number of its containers.
func virtHandler(rawKubevirt json.RawMessage) map[string]interface{} {
	kv := &v1.KubeVirt{}
	if err := strict("virtHandler", rawKubevirt, kv); err != nil {
		return map[string]interface{}{"error": err.Error()}
	}
	if kv.Namespace == "" {
		kv.Namespace = "kubevirt"
	}
	ds := components.NewHandlerDaemonSet(operatorutil.GetTargetConfigFromKV(kv), "", "", "")
	pod := &k8sv1.Pod{Spec: *ds.Spec.Template.Spec.DeepCopy()}
	defaultPodRequestsFromLimits(pod)
	tolerations := make([]interface{}, 0, len(pod.Spec.Tolerations))
	for _, t := range pod.Spec.Tolerations {
		tolerations = append(tolerations, map[string]interface{}{"key": t.Key, "operator": string(t.Operator), "effect": string(t.Effect)})
	}
	return map[string]interface{}{
		"name":        ds.Name,
		"podRequests": resourceMap(resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{})),
		"tolerations": tolerations,
		"containers":  len(pod.Spec.Containers),
	}
}
