// Command kubevirt-launcher-oracle renders, with KubeVirt v1.9.0's own code,
// the virt-launcher pod KubeVirt creates for a VirtualMachine and prints the
// pod's resource requests and limits as kube-scheduler and ResourceQuota count
// them (k8s.io/component-helpers/resource PodRequests/PodLimits).
//
// stdin:  {"cases":[{"name":..., "kubevirt":<KubeVirt>, "vm":<VirtualMachine>, ...}]}
// stdout: {"kubevirtVersion":"v1.9.0","cases":[...]}   (see README.md)
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	k8sv1 "k8s.io/api/core/v1"
	nodev1 "k8s.io/api/node/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	extv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	resourcehelper "k8s.io/component-helpers/resource"
	"k8s.io/klog/v2"
	sigsjson "sigs.k8s.io/json"

	v1 "kubevirt.io/api/core/v1"
	"kubevirt.io/client-go/log"

	"kubevirt.io/kubevirt/pkg/virt-operator/resource/generate/components"
)

const kubevirtModule = "kubevirt.io/kubevirt"

// logSink receives KubeVirt's log lines: stderr with -v, nowhere otherwise.
var logSink io.Writer = os.Stderr

type inputDoc struct {
	Cases []inputCase `json:"cases"`
	// VirtHandler, when present, asks for the virt-handler pod of this KubeVirt CR ({} for the defaults).
	VirtHandler json.RawMessage `json:"virtHandler,omitempty"`
}

type inputCase struct {
	Name     string          `json:"name"`
	KubeVirt json.RawMessage `json:"kubevirt"`
	VM       json.RawMessage `json:"vm"`
	// Optional cluster objects KubeVirt's render path reads from informers.
	PersistentVolumeClaims []json.RawMessage `json:"persistentVolumeClaims,omitempty"`
	Namespace              json.RawMessage   `json:"namespace,omitempty"`
	ResourceQuotas         []json.RawMessage `json:"resourceQuotas,omitempty"`
	RuntimeClasses         []json.RawMessage `json:"runtimeClasses,omitempty"`
}

func main() {
	// Own flag set: KubeVirt's dependencies register flags (klog's -v, ...)
	// on the global one.
	fs := flag.NewFlagSet("kubevirt-launcher-oracle", flag.ExitOnError)
	verbose := fs.Bool("v", false, "pass KubeVirt's and client-go's log lines through to stderr")
	full := fs.Bool("full", false, "also print the defaulted VMI and the rendered pod of each case (under \"debug\")")
	_ = fs.Parse(os.Args[1:])
	if !*verbose {
		logSink = io.Discard
		klog.LogToStderr(false)
		klog.SetOutput(io.Discard)
	}
	log.Log.SetIOWriter(logSink)

	raw, err := io.ReadAll(os.Stdin)
	if err != nil {
		fatal("reading stdin: %v", err)
	}
	var in inputDoc
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		fatal("parsing input: %v", err)
	}

	out := map[string]interface{}{
		"kubevirtVersion": kubevirtVersion(),
	}
	cases := make([]interface{}, 0, len(in.Cases))
	for i := range in.Cases {
		cases = append(cases, runCase(&in.Cases[i], *full))
	}
	out["cases"] = cases
	if len(in.VirtHandler) > 0 {
		out["virtHandler"] = virtHandler(in.VirtHandler)
	}

	if err := writeSorted(os.Stdout, out); err != nil {
		fatal("writing output: %v", err)
	}
}

func fatal(format string, a ...interface{}) {
	fmt.Fprintf(os.Stderr, "kubevirt-launcher-oracle: "+format+"\n", a...)
	os.Exit(2)
}

func kubevirtVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == kubevirtModule {
				return d.Version
			}
		}
	}
	return "unknown"
}

// writeSorted re-encodes v through a generic tree so that every object, at
// every depth, has its keys sorted (encoding/json sorts map keys), and keeps
// integers exact (UseNumber).
func writeSorted(w io.Writer, v interface{}) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var tree interface{}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&tree); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(tree)
}

func strict(what string, raw json.RawMessage, into interface{}) error {
	if len(raw) == 0 || string(raw) == "null" {
		return fail("input", "%s is required", what)
	}
	strictErrs, err := sigsjson.UnmarshalStrict(raw, into)
	if err != nil {
		return fail("input", "%s: %v", what, err)
	}
	if len(strictErrs) > 0 {
		return fail("input", "%s: %v", what, strictErrs[0])
	}
	return nil
}

func runCase(c *inputCase, full bool) (result map[string]interface{}) {
	result = map[string]interface{}{"name": c.Name}
	defer func() {
		if r := recover(); r != nil {
			result = map[string]interface{}{"name": c.Name, "error": fmt.Sprintf("panic in KubeVirt path: %v", r)}
		}
	}()
	env, err := decodeCase(c)
	if err == nil {
		var r *rendered
		if r, err = render(env); err == nil {
			fillResult(result, r)
			if full {
				result["debug"] = map[string]interface{}{"vmi": r.vmi, "pod": r.pod}
			}
			return result
		}
	}
	result["error"] = err.Error()
	return result
}

func decodeCase(c *inputCase) (*caseEnv, error) {
	env := &caseEnv{kubevirt: &v1.KubeVirt{}, vm: &v1.VirtualMachine{}, runtimeClasses: map[string]*k8sv1.ResourceList{}}
	if err := strict("kubevirt", c.KubeVirt, env.kubevirt); err != nil {
		return nil, err
	}
	if err := crdUnknownFields("kubevirt", components.NewKubeVirtCrd, c.KubeVirt); err != nil {
		return nil, err
	}
	if err := strict("vm", c.VM, env.vm); err != nil {
		return nil, err
	}
	if err := crdUnknownFields("vm", components.NewVirtualMachineCrd, c.VM); err != nil {
		return nil, err
	}
	for i, raw := range c.PersistentVolumeClaims {
		pvc := &k8sv1.PersistentVolumeClaim{}
		if err := strict(fmt.Sprintf("persistentVolumeClaims[%d]", i), raw, pvc); err != nil {
			return nil, err
		}
		env.pvcs = append(env.pvcs, pvc)
	}
	if len(c.Namespace) > 0 {
		env.namespace = &k8sv1.Namespace{}
		if err := strict("namespace", c.Namespace, env.namespace); err != nil {
			return nil, err
		}
	}
	for i, raw := range c.ResourceQuotas {
		rq := &k8sv1.ResourceQuota{}
		if err := strict(fmt.Sprintf("resourceQuotas[%d]", i), raw, rq); err != nil {
			return nil, err
		}
		env.resourceQuotas = append(env.resourceQuotas, rq)
	}
	for i, raw := range c.RuntimeClasses {
		rc := &nodev1.RuntimeClass{}
		if err := strict(fmt.Sprintf("runtimeClasses[%d]", i), raw, rc); err != nil {
			return nil, err
		}
		var fixed *k8sv1.ResourceList
		if rc.Overhead != nil && rc.Overhead.PodFixed != nil {
			f := rc.Overhead.PodFixed.DeepCopy()
			fixed = &f
		}
		env.runtimeClasses[rc.Name] = fixed
	}
	return env, nil
}

// intCompanions names the exact-integer field written beside a quantity.
var intCompanions = map[k8sv1.ResourceName]struct {
	field string
	milli bool
}{
	k8sv1.ResourceCPU:              {"cpuMilli", true},
	k8sv1.ResourceMemory:           {"memoryBytes", false},
	k8sv1.ResourceEphemeralStorage: {"ephemeralStorageBytes", false},
}

func resourceMap(list k8sv1.ResourceList) map[string]interface{} {
	m := map[string]interface{}{}
	for name, q := range list {
		m[string(name)] = q.String()
		if c, ok := intCompanions[name]; ok {
			if c.milli {
				m[c.field] = q.MilliValue()
			} else {
				m[c.field] = q.Value()
			}
		}
	}
	return m
}

func fillResult(result map[string]interface{}, r *rendered) {
	pod := r.pod
	overhead := r.memoryOverhead
	result["memoryOverhead"] = overhead.String()
	result["memoryOverheadBytes"] = overhead.Value()

	// kube-scheduler (NodeResourcesFit) and the ResourceQuota evaluator both
	// go through these helpers with default options: overhead included,
	// restartable init containers (native sidecars) summed with the app
	// containers, regular init containers taken as a max.
	result["podRequests"] = resourceMap(resourcehelper.PodRequests(pod, resourcehelper.PodResourcesOptions{}))
	result["podLimits"] = resourceMap(resourcehelper.PodLimits(pod, resourcehelper.PodResourcesOptions{}))

	var containers []interface{}
	add := func(c k8sv1.Container, kind string) {
		containers = append(containers, map[string]interface{}{
			"name":     c.Name,
			"kind":     kind,
			"requests": resourceMap(c.Resources.Requests),
			"limits":   resourceMap(c.Resources.Limits),
		})
	}
	for _, c := range pod.Spec.InitContainers {
		kind := "init"
		if c.RestartPolicy != nil && *c.RestartPolicy == k8sv1.ContainerRestartPolicyAlways {
			kind = "sidecar"
		}
		add(c, kind)
	}
	for _, c := range pod.Spec.Containers {
		add(c, "container")
	}
	result["containers"] = containers

	var runtimeClassName interface{}
	if pod.Spec.RuntimeClassName != nil {
		runtimeClassName = *pod.Spec.RuntimeClassName
	}
	var podOverhead interface{}
	if pod.Spec.Overhead != nil {
		podOverhead = resourceMap(pod.Spec.Overhead)
	}
	result["scheduling"] = map[string]interface{}{
		"nodeSelector":              pod.Spec.NodeSelector,
		"affinity":                  pod.Spec.Affinity,
		"tolerations":               pod.Spec.Tolerations,
		"topologySpreadConstraints": pod.Spec.TopologySpreadConstraints,
		"schedulerName":             pod.Spec.SchedulerName,
		"priorityClassName":         pod.Spec.PriorityClassName,
		"runtimeClassName":          runtimeClassName,
		"overhead":                  podOverhead,
	}
}

// crdUnknownFields does what the API server does for a custom resource sent
// with fieldValidation=Strict (kubectl's default): prune the object against
// the CRD's structural schema and refuse it if anything was pruned. The CRD
// is the one virt-operator v1.9.0 installs (components.New*Crd). Without this,
// a misspelt field would be dropped silently (KubeVirt's
// VirtualMachineInstanceSpec has its own UnmarshalJSON, which hides unknown
// fields from a strict JSON decoder).
func crdUnknownFields(what string, newCRD func() (*extv1.CustomResourceDefinition, error), raw json.RawMessage) error {
	crd, err := newCRD()
	if err != nil {
		return fail("input", "%s: building KubeVirt CRD: %v", what, err)
	}
	var schema *extv1.JSONSchemaProps
	for _, v := range crd.Spec.Versions {
		if v.Name == v1.SchemeGroupVersion.Version && v.Schema != nil {
			schema = v.Schema.OpenAPIV3Schema
		}
	}
	if schema == nil {
		return fail("input", "%s: CRD %s has no %s schema", what, crd.Name, v1.SchemeGroupVersion.Version)
	}
	internal := &apiextensions.JSONSchemaProps{}
	if err := extv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(schema, internal, nil); err != nil {
		return fail("input", "%s: converting CRD schema: %v", what, err)
	}
	structural, err := structuralschema.NewStructural(internal)
	if err != nil {
		return fail("input", "%s: CRD schema is not structural: %v", what, err)
	}
	var obj interface{}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return fail("input", "%s: %v", what, err)
	}
	pruned := pruning.PruneWithOptions(obj, structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	if len(pruned) > 0 {
		return fail("input", "%s: unknown field(s) %s", what, strings.Join(pruned, ", "))
	}
	return nil
}
