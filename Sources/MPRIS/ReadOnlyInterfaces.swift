import SDBus

/// An interface whose properties clients may read but not set.
protocol ReadOnlyInterface: InterfaceImplementation {}

extension ReadOnlyInterface {
    func set(_ property: String, to value: DBusValue) throws(DBusError) {
        throw DBusError.readOnly(property)
    }
}

/// An interface of methods only (the desktop shells' search interfaces).
protocol MethodsOnlyInterface: InterfaceImplementation {}

extension MethodsOnlyInterface {
    func get(_ property: String) throws(DBusError) -> DBusValue {
        throw DBusError.unknownProperty(property)
    }

    func set(_ property: String, to value: DBusValue) throws(DBusError) {
        throw DBusError.unknownProperty(property)
    }
}
