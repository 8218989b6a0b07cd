package main

// Stand-ins for the cluster around KubeVirt: an API server that has nothing in
// it, and informer stores the oracle fills from the case input. Everything
// KubeVirt computes on top of them is KubeVirt's own code.

import (
	"bytes"
	"fmt"
	"io"
	"net/http"

	k8sv1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	"kubevirt.io/client-go/kubecli"
)

// emptyAPIServer answers every request the way a real API server answers a
// GET for an object that does not exist: 404 with a NotFound Status. KubeVirt
// code that looks something up (DataSources for architecture defaulting,
// NetworkAttachmentDefinitions, hook-sidecar ConfigMaps, instancetypes, ...)
// therefore sees an empty cluster instead of crashing or hanging.
type emptyAPIServer struct{}

func (emptyAPIServer) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
	body := fmt.Sprintf(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",`+
		`"message":"the metalslice KubeVirt oracle has no API server: %s %s not found","reason":"NotFound","code":404}`,
		req.Method, req.URL.Path)
	return &http.Response{
		StatusCode: http.StatusNotFound,
		Status:     "404 Not Found",
		Header:     http.Header{"Content-Type": []string{"application/json"}},
		Body:       io.NopCloser(bytes.NewBufferString(body)),
		Request:    req,
		ProtoMajor: 1, ProtoMinor: 1,
	}, nil
}

func newEmptyClusterClient() (kubecli.KubevirtClient, error) {
	return kubecli.GetKubevirtClientFromRESTConfig(&rest.Config{
		Host:      "http://kubevirt-oracle.invalid",
		Transport: emptyAPIServer{},
	})
}

func newStore(objs ...interface{}) (cache.Store, error) {
	s := cache.NewStore(cache.DeletionHandlingMetaNamespaceKeyFunc)
	for _, o := range objs {
		if err := s.Add(o); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func newIndexer(objs ...interface{}) (cache.Indexer, error) {
	ix := cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, o := range objs {
		if err := ix.Add(o); err != nil {
			return nil, err
		}
	}
	return ix, nil
}

// synthesizePVCs returns a bound Filesystem-mode claim for every PVC-backed
// volume (persistentVolumeClaim, ephemeral, dataVolume) that the case did not
// describe itself. virt-controller's template service reads these claims from
// its PVC informer to decide volumeMounts vs volumeDevices; in a cluster the
// DataVolume's PVC exists before virt-controller renders the pod (it waits for
// it), so the render path always finds one.
func synthesizePVCs(namespace string, claimNames []string, given []*k8sv1.PersistentVolumeClaim) []interface{} {
	have := map[string]bool{}
	var out []interface{}
	for _, p := range given {
		if p.Namespace == "" {
			p.Namespace = namespace
		}
		have[p.Namespace+"/"+p.Name] = true
		out = append(out, p)
	}
	fs := k8sv1.PersistentVolumeFilesystem
	for _, name := range claimNames {
		if have[namespace+"/"+name] {
			continue
		}
		have[namespace+"/"+name] = true
		out = append(out, &k8sv1.PersistentVolumeClaim{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
			Spec: k8sv1.PersistentVolumeClaimSpec{
				AccessModes: []k8sv1.PersistentVolumeAccessMode{k8sv1.ReadWriteOnce},
				VolumeMode:  &fs,
			},
			Status: k8sv1.PersistentVolumeClaimStatus{Phase: k8sv1.ClaimBound},
		})
	}
	return out
}
