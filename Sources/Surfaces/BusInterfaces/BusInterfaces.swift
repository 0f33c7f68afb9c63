// The D-Bus interfaces Reprise implements or calls, generated from `dbus/*.xml` and `dbus/external/*.xml` by the
// DBusInterfaces build-tool plugin (dbus-codegen): for each, the description sd-bus exports, the handler protocol
// the service implements, its export and tree export, its signals' emitter and its client proxy. Nothing here is
// written by hand but this note; the service (MPRIS, RepriseInterfaces) and every client (the CLI, the terminal
// view, the tests, the fuzzer) use the same generated code.
