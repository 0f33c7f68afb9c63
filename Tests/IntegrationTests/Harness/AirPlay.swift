import Foundation
import TestSupport

/// An AirPlay speaker on loopback, inside `namespace`, as Debian 12 has it: shairport-sync 3.3.8 playing into the
/// session's null sink `room` (its only mDNS backend is avahi, so a private "system" dbus-daemon and avahi-daemon on
/// `lo` run too), and PipeWire's RAOP sink (`libpipewire-module-raop-sink`, in a PipeWire client process of its
/// own) sending to it, which pipewire-pulse offers as the sink `raop_sink`. Everything is killed by PID in the
/// session's ``Session/close()``. Needs the session on PipeWire.
struct PrivateAirPlaySpeaker {
    static let sinkName = "raop_sink"
    static let roomSink = "room"

    init(session: Session, namespace: NetworkNamespace) throws {
        let folder = try session.makeFolder("airplay")
        try session.pactl("load-module", "module-null-sink", "sink_name=\(Self.roomSink)")
        let systemBus = "unix:path=\(folder)/system_bus"
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>system</type><listen>\(systemBus)</listen><auth>EXTERNAL</auth>
              <policy context="default"><allow user="*"/><allow own="*"/><allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/></policy>
            </busconfig>
            """.write(toFile: folder + "/system-bus.conf", atomically: true, encoding: .utf8)
        try """
            [server]
            use-ipv4=yes
            use-ipv6=no
            allow-interfaces=lo
            enable-dbus=yes
            [publish]
            publish-hinfo=no
            publish-workstation=no
            """.write(toFile: folder + "/avahi.conf", atomically: true, encoding: .utf8)
        try """
            general = { name = "Room"; output_backend = "pa"; port = 5055; udp_port_base = 6101; udp_port_range = 10;
                        dbus_service_bus = "system"; mpris_service_bus = "system"; ignore_volume_control = "yes"; };
            pa = { sink = "\(Self.roomSink)"; application_name = "shairport-sync"; };
            """.write(toFile: folder + "/shairport-sync.conf", atomically: true, encoding: .utf8)
        try """
            context.properties = { log.level = 2 }
            context.spa-libs = { support.* = support/libspa-support }
            context.modules = [
              { name = libpipewire-module-protocol-native }
              { name = libpipewire-module-client-node }
              { name = libpipewire-module-adapter }
              { name = libpipewire-module-raop-sink
                args = { raop.hostname = "127.0.0.1" raop.port = 5055 raop.transport = "udp" raop.encryption.type = "none"
                         raop.audio.codec = "PCM" node.name = "\(Self.sinkName)" node.description = "AirPlay Room" } }
            ]
            """.write(toFile: folder + "/raop-sender.conf", atomically: true, encoding: .utf8)
        let onSystemBus = ["DBUS_SYSTEM_BUS_ADDRESS": systemBus]
        try namespace.entered {
            try session.start("dbus-daemon", ["--config-file=\(folder)/system-bus.conf", "--nofork"], logName: "system-bus")
            guard eventually(10, { FileManager.default.fileExists(atPath: folder + "/system_bus") }) else {
                throw HarnessError(message: "the private system bus did not start: \(session.output(ofLog: "system-bus"))")
            }
            try session.start("avahi-daemon", ["--no-drop-root", "--no-chroot", "--no-rlimits", "-f", folder + "/avahi.conf"],
                              logName: "avahi", extraEnvironment: onSystemBus)
            guard eventually(10, { session.output(ofLog: "avahi").contains("Server startup complete") }) else {
                throw HarnessError(message: "avahi-daemon did not start: \(session.output(ofLog: "avahi"))")
            }
            try session.start("shairport-sync", ["-c", folder + "/shairport-sync.conf"], logName: "shairport-sync",
                              extraEnvironment: onSystemBus)
            guard eventually(10, { (try? runCommand("ss", ["-Htln", "sport = :5055"]).output.contains("5055")) == true }) else {
                throw HarnessError(message: "shairport-sync did not listen: \(session.output(ofLog: "shairport-sync"))")
            }
            try session.start("pipewire", ["-c", folder + "/raop-sender.conf"], logName: "raop-sender")
        }
        guard eventually(20, { (try? session.pactl("list", "short", "sinks").output.contains(Self.sinkName)) == true }) else {
            throw HarnessError(message: "no \(Self.sinkName): \(session.output(ofLog: "raop-sender"))")
        }
    }
}
