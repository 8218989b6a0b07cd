package main

// The path a VirtualMachine takes in a KubeVirt v1.9.0 cluster until its
// virt-launcher pod is ready to be created, step by step, each step calling
// KubeVirt's own function (see README.md for the list).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/google/uuid"
	admissionv1 "k8s.io/api/admission/v1"
	authv1 "k8s.io/api/authentication/v1"
	k8sv1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"

	v1 "kubevirt.io/api/core/v1"
	"kubevirt.io/client-go/log"

	"kubevirt.io/kubevirt/pkg/hooks"
	"kubevirt.io/kubevirt/pkg/hypervisor"
	netadmitter "kubevirt.io/kubevirt/pkg/network/admitter"
	"kubevirt.io/kubevirt/pkg/network/netbinding"
	netannotations "kubevirt.io/kubevirt/pkg/network/pod/annotations"
	netresources "kubevirt.io/kubevirt/pkg/network/resources"
	netvmispec "kubevirt.io/kubevirt/pkg/network/vmispec"
	"kubevirt.io/kubevirt/pkg/storage/cbt"
	storageannotations "kubevirt.io/kubevirt/pkg/storage/pod/annotations"
	"kubevirt.io/kubevirt/pkg/testutils"
	"kubevirt.io/kubevirt/pkg/util"
	"kubevirt.io/kubevirt/pkg/virt-api/webhooks"
	"kubevirt.io/kubevirt/pkg/virt-api/webhooks/mutating-webhook/mutators"
	"kubevirt.io/kubevirt/pkg/virt-api/webhooks/validating-webhook/admitters"
	virtconfig "kubevirt.io/kubevirt/pkg/virt-config"
	"kubevirt.io/kubevirt/pkg/virt-controller/services"
	"kubevirt.io/kubevirt/pkg/virt-controller/watch/topology"
	vmcontroller "kubevirt.io/kubevirt/pkg/virt-controller/watch/vm"
	"kubevirt.io/kubevirt/pkg/virt-operator/resource/generate/components"
	operatorutil "kubevirt.io/kubevirt/pkg/virt-operator/util"
	"kubevirt.io/kubevirt/pkg/virtiofs"
)

// Values virt-controller runs with by default (its command-line flag
// defaults in pkg/virt-controller/watch/application.go; the constants there
// are unexported). None of them changes a resource figure.
const (
	kubevirtNamespace   = "kubevirt"
	launcherImage       = "virt-launcher:v1.9.0"
	exporterImage       = "virt-exportserver:v1.9.0"
	launcherQemuTimeout = 240
	imagePullSecret     = ""
	virtShareDir        = "/var/run/kubevirt"
	ephemeralDiskDir    = virtShareDir + "-ephemeral-disks"
	launcherSubGid      = int64(107)
	// The user a VM is created by: not a KubeVirt service account.
	vmCreator = "system:serviceaccount:metalslice:oracle"
)

var (
	containerDiskDir = util.VirtShareDir + "/container-disks"
	hotplugDiskDir   = util.VirtShareDir + "/hotplug-disks"
	// virt-controller creates the VMI under its own service account, which
	// the VMI webhooks treat as trusted (webhooks.KubeVirtServiceAccounts).
	virtControllerUser = "system:serviceaccount:" + kubevirtNamespace + ":" + components.ControllerServiceAccountName
)

// stageError tags an error with the step of the path that refused the VM.
type stageError struct {
	stage string
	err   error
}

func (e *stageError) Error() string { return e.stage + ": " + e.err.Error() }

func fail(stage string, format string, a ...interface{}) error {
	return &stageError{stage: stage, err: fmt.Errorf(format, a...)}
}

type caseEnv struct {
	kubevirt       *v1.KubeVirt
	vm             *v1.VirtualMachine
	pvcs           []*k8sv1.PersistentVolumeClaim
	namespace      *k8sv1.Namespace
	resourceQuotas []*k8sv1.ResourceQuota
	runtimeClasses map[string]*k8sv1.ResourceList // name -> overhead.podFixed (nil: none)
}

type rendered struct {
	clusterConfig  *virtconfig.ClusterConfig
	vmi            *v1.VirtualMachineInstance
	pod            *k8sv1.Pod
	memoryOverhead resource.Quantity
}

// clusterConfigFor builds virt-controller's/virt-api's ClusterConfig from the
// KubeVirt CR, the way those components see it once virt-operator has
// reconciled the CR.
func clusterConfigFor(kv *v1.KubeVirt) (*virtconfig.ClusterConfig, error) {
	kv = kv.DeepCopy()
	// virtconfig reads the CR from its informer under the install namespace.
	kv.Namespace = kubevirtNamespace
	if kv.Name == "" {
		kv.Name = "kubevirt"
	}
	// virt-operator records the default architecture in the CR status.
	operatorutil.SetDefaultArchitecture(kv)
	cfg, _, _ := testutils.NewFakeClusterConfigUsingKV(kv)
	// An invalid configuration is logged and silently replaced by the built-in
	// defaults; a test oracle must refuse instead, with virt-config's reason.
	var logged bytes.Buffer
	log.Log.SetIOWriter(io.MultiWriter(&logged, logSink))
	defer log.Log.SetIOWriter(logSink)
	if cfg.GetConfig() == cfg.GetDefaultClusterConfig() {
		reason := "see KubeVirt's log (-v)"
		for _, line := range strings.Split(logged.String(), "\n") {
			var entry struct {
				Msg    string `json:"msg"`
				Reason string `json:"reason"`
			}
			if json.Unmarshal([]byte(line), &entry) == nil && entry.Reason != "" {
				reason = entry.Reason
			}
		}
		return nil, fail("kubevirt-config", "virt-config rejected spec.configuration of the KubeVirt CR, which a cluster would silently replace by defaults: %s", reason)
	}
	return cfg, nil
}

func marshalAR(op admissionv1.Operation, gvr metav1.GroupVersionResource, user string, obj interface{}) (*admissionv1.AdmissionReview, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return &admissionv1.AdmissionReview{
		Request: &admissionv1.AdmissionRequest{
			UID:       types.UID(uuid.NewString()),
			Operation: op,
			Resource:  gvr,
			Object:    runtimeRaw(raw),
			UserInfo:  authv1.UserInfo{Username: user},
		},
	}, nil
}

func responseError(stage string, resp *admissionv1.AdmissionResponse) error {
	if resp == nil {
		return nil
	}
	if !resp.Allowed {
		msg := "denied"
		if resp.Result != nil {
			msg = resp.Result.Message
			if resp.Result.Details != nil && len(resp.Result.Details.Causes) > 0 {
				var causes []string
				for _, c := range resp.Result.Details.Causes {
					causes = append(causes, causeText(c))
				}
				msg = strings.Join(causes, "; ")
			}
		}
		return fail(stage, "%s", msg)
	}
	return nil
}

// applyMutation applies a mutating webhook's JSON patch to obj, as the API
// server does before persisting it.
func applyMutation(stage string, ar *admissionv1.AdmissionReview, resp *admissionv1.AdmissionResponse, into interface{}) error {
	if err := responseError(stage, resp); err != nil {
		return err
	}
	doc := ar.Request.Object.Raw
	if resp != nil && len(resp.Patch) > 0 {
		p, err := jsonpatch.DecodePatch(resp.Patch)
		if err != nil {
			return fail(stage, "decoding webhook patch: %v", err)
		}
		if doc, err = p.Apply(doc); err != nil {
			return fail(stage, "applying webhook patch: %v", err)
		}
	}
	if err := json.Unmarshal(doc, into); err != nil {
		return fail(stage, "decoding patched object: %v", err)
	}
	return nil
}

func render(env *caseEnv) (*rendered, error) {
	ctx := context.Background()
	cc, err := clusterConfigFor(env.kubevirt)
	if err != nil {
		return nil, err
	}
	virtClient, err := newEmptyClusterClient()
	if err != nil {
		return nil, err
	}
	kvServiceAccounts := webhooks.KubeVirtServiceAccounts(kubevirtNamespace)

	vm := env.vm.DeepCopy()
	if vm.Namespace == "" {
		vm.Namespace = "default"
	}
	if vm.Name == "" {
		return nil, fail("input", "vm.metadata.name is required")
	}
	if vm.Spec.Template == nil {
		return nil, fail("input", "vm.spec.template is required")
	}
	if vm.Spec.Instancetype != nil || vm.Spec.Preference != nil {
		return nil, fail("input", "instancetypes/preferences are not resolved by this oracle")
	}
	// What the API server fills in on create.
	if vm.UID == "" {
		vm.UID = types.UID(uuid.NewSHA1(uuid.NameSpaceURL, []byte("vm/"+vm.Namespace+"/"+vm.Name)).String())
	}
	vm.Generation = 1
	vm.APIVersion, vm.Kind = v1.GroupVersion.String(), "VirtualMachine"

	// 1. VM CREATE: virt-api mutating webhook (VMsMutator.Mutate).
	ar, err := marshalAR(admissionv1.Create, webhooks.VirtualMachineGroupVersionResource, vmCreator, vm)
	if err != nil {
		return nil, err
	}
	mutated := &v1.VirtualMachine{}
	if err := applyMutation("vm-mutating-webhook", ar, mutators.NewVMsMutator(cc, virtClient).Mutate(ar), mutated); err != nil {
		return nil, err
	}
	vm = mutated

	// 2. VM CREATE: virt-api validating webhook (VMsAdmitter.Admit).
	ar, err = marshalAR(admissionv1.Create, webhooks.VirtualMachineGroupVersionResource, vmCreator, vm)
	if err != nil {
		return nil, err
	}
	dsInformer, _ := testutils.NewFakeInformerFor(&k8sv1.Namespace{})
	nsInformer, _ := testutils.NewFakeInformerFor(&k8sv1.Namespace{})
	vmsAdmitter := admitters.NewVMsAdmitter(cc, virtClient, &webhooks.Informers{DataSourceInformer: dsInformer, NamespaceInformer: nsInformer}, kvServiceAccounts)
	if err := responseError("vm-validating-webhook", vmsAdmitter.Admit(ctx, ar)); err != nil {
		return nil, err
	}

	// 3. virt-controller VM controller, startVMI: VM -> VMI.
	var nsObjs []interface{}
	if env.namespace != nil {
		nsObjs = append(nsObjs, env.namespace)
	}
	namespaceStore, err := newStore(nsObjs...)
	if err != nil {
		return nil, err
	}
	vmi := vmcontroller.SetupVMIFromVM(vm)
	if vmi.Annotations == nil {
		vmi.Annotations = map[string]string{}
	}
	vmi.Annotations[v1.VirtualMachineGenerationAnnotation] = fmt.Sprint(vm.Generation)
	vmi.Finalizers = append(vmi.Finalizers, v1.VirtualMachineControllerFinalizer)
	cbt.SetChangedBlockTrackingOnVMI(vm, vmi, cc, namespaceStore)
	vmcontroller.AutoAttachInputDevice(vmi)
	if err := netvmispec.SetDefaultNetworkInterface(cc, &vmi.Spec); err != nil {
		return nil, fail("vm-controller", "%v", err)
	}
	if err := causesError("vm-controller", netadmitter.NewValidator(k8sfield.NewPath("spec"), &vmi.Spec, cc).ValidateCreation()); err != nil {
		return nil, err
	}

	// 4. VMI CREATE (by virt-controller): mutating webhook (VMIsMutator.Mutate).
	vmi.APIVersion, vmi.Kind = v1.GroupVersion.String(), "VirtualMachineInstance"
	ar, err = marshalAR(admissionv1.Create, webhooks.VirtualMachineInstanceGroupVersionResource, virtControllerUser, vmi)
	if err != nil {
		return nil, err
	}
	presetInformer, _ := testutils.NewFakeInformerFor(&v1.VirtualMachineInstancePreset{})
	vmiMutator := &mutators.VMIsMutator{ClusterConfig: cc, VMIPresetInformer: presetInformer, KubeVirtServiceAccounts: kvServiceAccounts}
	mutatedVMI := &v1.VirtualMachineInstance{}
	if err := applyMutation("vmi-mutating-webhook", ar, vmiMutator.Mutate(ar), mutatedVMI); err != nil {
		return nil, err
	}
	vmi = mutatedVMI
	// What the API server fills in on create.
	vmi.UID = types.UID(uuid.NewSHA1(uuid.NameSpaceURL, []byte("vmi/"+vmi.Namespace+"/"+vmi.Name)).String())
	vmi.Generation = 1

	// 5. VMI CREATE: validating webhook (VMICreateAdmitter.Admit), with the
	// extra spec validator virt-api registers (network admitter).
	ar, err = marshalAR(admissionv1.Create, webhooks.VirtualMachineInstanceGroupVersionResource, virtControllerUser, vmi)
	if err != nil {
		return nil, err
	}
	vmiAdmitter := &admitters.VMICreateAdmitter{
		ClusterConfig:           cc,
		KubeVirtServiceAccounts: kvServiceAccounts,
		SpecValidators: []admitters.SpecValidator{
			func(field *k8sfield.Path, spec *v1.VirtualMachineInstanceSpec, cfg *virtconfig.ClusterConfig) []metav1.StatusCause {
				return netadmitter.Validate(field, spec, cfg)
			},
		},
	}
	if err := responseError("vmi-validating-webhook", vmiAdmitter.Admit(ctx, ar)); err != nil {
		return nil, err
	}

	// 6. virt-controller VMI controller: pre-pod checks, then the template
	// service configured as virt-controller configures it.
	nodeStore, _ := newStore()
	vmiStore, _ := newStore()
	if topology.NewTopologyHinter(nodeStore, vmiStore, cc).IsTscFrequencyRequired(vmi) {
		return nil, fail("vmi-controller", "VMI needs TSC-frequency topology hints from cluster nodes, which this oracle does not model")
	}
	if len(virtiofs.GetContainerPathVolumesWithFilesystems(vmi)) > 0 && !cc.ContainerPathVolumesEnabled() {
		return nil, fail("vmi-controller", "VMI has ContainerPath volumes but the ContainerPathVolumes feature gate is disabled")
	}
	var claimNames []string
	for _, vol := range vmi.Spec.Volumes {
		switch {
		case vol.PersistentVolumeClaim != nil:
			claimNames = append(claimNames, vol.PersistentVolumeClaim.ClaimName)
		case vol.Ephemeral != nil && vol.Ephemeral.PersistentVolumeClaim != nil:
			claimNames = append(claimNames, vol.Ephemeral.PersistentVolumeClaim.ClaimName)
		case vol.DataVolume != nil:
			claimNames = append(claimNames, vol.DataVolume.Name)
		}
	}
	pvcStore, err := newIndexer(synthesizePVCs(vmi.Namespace, claimNames, env.pvcs)...)
	if err != nil {
		return nil, err
	}
	var rqObjs []interface{}
	for _, rq := range env.resourceQuotas {
		if rq.Namespace == "" {
			rq.Namespace = vmi.Namespace
		}
		rqObjs = append(rqObjs, rq)
	}
	rqStore, err := newStore(rqObjs...)
	if err != nil {
		return nil, err
	}
	netAnnotationsGenerator := netannotations.NewGenerator(cc)
	templateService := services.NewTemplateService(launcherImage,
		launcherQemuTimeout,
		virtShareDir,
		ephemeralDiskDir,
		containerDiskDir,
		hotplugDiskDir,
		imagePullSecret,
		pvcStore,
		virtClient,
		cc,
		launcherSubGid,
		exporterImage,
		rqStore,
		namespaceStore,
		services.WithSidecarCreator(
			func(vmi *v1.VirtualMachineInstance, _ *v1.KubeVirtConfiguration) (hooks.HookSidecarList, error) {
				return hooks.UnmarshalHookSidecarList(vmi)
			}),
		services.WithSidecarCreator(netbinding.NetBindingPluginSidecarList),
		services.WithNetMemoryCalculator(netresources.MemoryCalculator{}),
		services.WithAnnotationsGenerators(netAnnotationsGenerator, storageannotations.Generator{}),
		services.WithNetTargetAnnotationsGenerator(netAnnotationsGenerator),
	)
	pod, err := templateService.RenderLaunchManifest(vmi)
	if err != nil {
		return nil, fail("render-launch-manifest", services.FailedToRenderLaunchManifestErrFormat, err)
	}
	if err := causesError("vmi-controller", netadmitter.ValidateCreation(k8sfield.NewPath("spec"), &vmi.Spec, cc)); err != nil {
		return nil, err
	}
	overhead := services.CalculateMemoryOverhead(cc, netresources.MemoryCalculator{}, vmi,
		hypervisor.NewLauncherHypervisorResources(cc.GetHypervisor().Name))

	// 7. Pod CREATE in the API server: namespace, RuntimeClass admission
	// (pod overhead) and core/v1 Pod defaulting (requests default to limits).
	pod.Namespace = vmi.Namespace
	if err := admitRuntimeClass(pod, env.runtimeClasses); err != nil {
		return nil, err
	}
	if pod.Spec.Resources != nil {
		// Pod-level resources have their own defaulting rules; KubeVirt v1.9.0
		// does not set them, so this is only a guard.
		return nil, fail("pod-admission", "pod-level resources (spec.resources) are not modeled by this oracle")
	}
	defaultPodRequestsFromLimits(pod)

	return &rendered{clusterConfig: cc, vmi: vmi, pod: pod, memoryOverhead: overhead}, nil
}

// causeText is a StatusCause as one line, naming the field unless the
// message already does.
func causeText(c metav1.StatusCause) string {
	if c.Field == "" || strings.Contains(c.Message, c.Field) {
		return c.Message
	}
	return c.Field + ": " + c.Message
}

func causesError(stage string, causes []metav1.StatusCause) error {
	if len(causes) == 0 {
		return nil
	}
	var msgs []string
	for _, c := range causes {
		msgs = append(msgs, causeText(c))
	}
	return fail(stage, "%s", strings.Join(msgs, "; "))
}

// admitRuntimeClass does what the RuntimeClass admission plugin does: copy
// the RuntimeClass's overhead.podFixed into pod.spec.overhead. The classes
// come from the case input (the oracle has no cluster to read them from).
func admitRuntimeClass(pod *k8sv1.Pod, classes map[string]*k8sv1.ResourceList) error {
	if pod.Spec.RuntimeClassName == nil || *pod.Spec.RuntimeClassName == "" {
		return nil
	}
	overhead, ok := classes[*pod.Spec.RuntimeClassName]
	if !ok {
		return fail("pod-admission", "pod uses runtimeClassName %q; add it to the case's runtimeClasses so its overhead is counted", *pod.Spec.RuntimeClassName)
	}
	if overhead != nil {
		pod.Spec.Overhead = overhead.DeepCopy()
	}
	return nil
}

// defaultPodRequestsFromLimits is the API server's core/v1 Pod defaulting
// (SetDefaults_Pod in k8s.io/kubernetes/pkg/apis/core/v1): a container that
// sets a limit but no request for a resource gets request = limit. It lives
// in k8s.io/kubernetes, which is not importable as a module, so it is
// restated here.
func defaultPodRequestsFromLimits(pod *k8sv1.Pod) {
	fill := func(cs []k8sv1.Container) {
		for i := range cs {
			r := &cs[i].Resources
			if r.Limits == nil {
				continue
			}
			if r.Requests == nil {
				r.Requests = k8sv1.ResourceList{}
			}
			for name, q := range r.Limits {
				if _, ok := r.Requests[name]; !ok {
					r.Requests[name] = q.DeepCopy()
				}
			}
		}
	}
	fill(pod.Spec.Containers)
	fill(pod.Spec.InitContainers)
}

func runtimeRaw(raw []byte) runtime.RawExtension { return runtime.RawExtension{Raw: raw} }
