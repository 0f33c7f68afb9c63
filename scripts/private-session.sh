# Sourced by the demo: makes sure a session bus and a PulseAudio server are reachable,
# starting private ones (torn down by PID at exit) when none is.
# Sets DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR and PULSE_SERVER as needed.
private_pids=()
private_dir=""
cleanup_private_session() {
  for pid in "${private_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "$private_dir" ] && rm -rf "$private_dir"
  return 0
}
trap cleanup_private_session EXIT

needs_dir() {
  if [ -z "$private_dir" ]; then
    private_dir=$(mktemp -d /tmp/reprise-session.XXXXXX)
    chmod 700 "$private_dir"
  fi
}

if ! gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
      --method org.freedesktop.DBus.GetId >/dev/null 2>&1; then
  needs_dir
  { read -r address; read -r pid; } < <(dbus-daemon --session --fork --print-address=1 --print-pid=1)
  export DBUS_SESSION_BUS_ADDRESS=$address
  private_pids+=("$pid")
  echo "started a private session bus ($address)"
fi

if ! pactl info >/dev/null 2>&1; then
  needs_dir
  export XDG_RUNTIME_DIR=$private_dir
  mkdir -p "$private_dir/home"
  HOME="$private_dir/home" pulseaudio --daemonize=yes --exit-idle-time=-1 -n \
    --load=module-native-protocol-unix --load="module-null-sink sink_name=speakers" \
    --load=module-role-cork --log-target=stderr 2>/dev/null
  for _ in $(seq 50); do [ -S "$private_dir/pulse/native" ] && break; sleep 0.1; done
  export PULSE_SERVER="unix:$private_dir/pulse/native"
  private_pids+=("$(cat "$private_dir/pulse/pid")")
  echo "started a private PulseAudio with a null sink ($PULSE_SERVER)"
fi
