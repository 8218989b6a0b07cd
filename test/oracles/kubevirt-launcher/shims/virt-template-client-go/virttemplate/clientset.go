// Package virttemplate is a shim: KubeVirt's informer factory builds a
// template client from it. The oracle never starts that informer, so every
// call fails loudly instead of pretending to talk to an API server.
package virttemplate

import (
	"errors"

	"k8s.io/client-go/rest"
)

type TemplateV1beta1Interface interface {
	RESTClient() rest.Interface
}

type Clientset struct{}

func (*Clientset) TemplateV1beta1() TemplateV1beta1Interface { return nil }

func NewForConfig(*rest.Config) (*Clientset, error) {
	return nil, errors.New("virt-template client is not available in the metalslice KubeVirt oracle")
}
