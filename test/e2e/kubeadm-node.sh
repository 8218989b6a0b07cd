#!/usr/bin/env bash
# One kubeadm worker node on this machine, for the join e2e test (started by startKubeadmNode in harness.ts).
# It runs inside a private mount namespace (unshare --mount), so the paths kubeadm, the kubelet and containerd
# write (/etc/kubernetes, /var/lib/kubelet, /var/lib/containerd, /run/containerd, /var/log/pods) are bind mounts
# of directories under NODE_DIR, never the machine's own. It does what systemd does on a real node: runs
# containerd, and starts the kubelet with the flags of kubeadm's kubelet drop-in as soon as `kubeadm join` has
# written them; `kubeadm join` itself then waits for the kubelet's TLS bootstrap, as on a real node.
#
# Usage: kubeadm-node.sh NODE_DIR JOIN_CONFIG [kubeadm join flags...]
# Writes NODE_DIR/{containerd,kubeadm-join,kubelet}.log, NODE_DIR/join-exit-code when kubeadm join ends, and
# NODE_DIR/created-dirs: the mount points this script had to create on the machine (the harness removes them).
set -euo pipefail
node_dir=$1
join_config=$2
shift 2

for d in /etc/kubernetes /var/lib/kubelet /var/lib/containerd /run/containerd /var/log/pods /var/log/containers; do
  [[ -d "$d" ]] || { mkdir -p "$d"; echo "$d" >>"$node_dir/created-dirs"; }
  mkdir -p "$node_dir/fs$d"
  mount --bind "$node_dir/fs$d" "$d"
done

# The node has no systemd here, so containerd drives cgroups itself (cgroupfs), as the kubelet-config says.
containerd config default | sed 's/SystemdCgroup = true/SystemdCgroup = false/' >"$node_dir/containerd.toml"
containerd --config "$node_dir/containerd.toml" >"$node_dir/containerd.log" 2>&1 &
for _ in $(seq 1 100); do [[ -S /run/containerd/containerd.sock ]] && break; sleep 0.1; done

( kubeadm join --config "$join_config" "$@" >"$node_dir/kubeadm-join.log" 2>&1; echo $? >"$node_dir/join-exit-code" ) &
join=$!

# kubeadm's systemd drop-in (10-kubeadm.conf): bootstrap kubeconfig, kubeconfig, config file, kubeadm-flags.env.
for _ in $(seq 1 600); do
  [[ -f /var/lib/kubelet/kubeadm-flags.env && -f /var/lib/kubelet/config.yaml && -f /etc/kubernetes/bootstrap-kubelet.conf ]] && break
  kill -0 "$join" 2>/dev/null || break
  sleep 0.1
done
if [[ -f /var/lib/kubelet/kubeadm-flags.env ]]; then
  # shellcheck source=/dev/null
  source /var/lib/kubelet/kubeadm-flags.env
  # shellcheck disable=SC2086 # KUBELET_KUBEADM_ARGS is a list of flags, as systemd splits it
  kubelet --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf \
    --config=/var/lib/kubelet/config.yaml $KUBELET_KUBEADM_ARGS >"$node_dir/kubelet.log" 2>&1 &
fi
wait
