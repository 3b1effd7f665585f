/// The fields that make an X.509 certificate an Apple Push Services client certificate, as Apple
/// issues them: the app's bundle id in the subject's user id, one extension per environment the
/// certificate may connect to, and (for the universal certificate) the list of topics.
///
/// Object identifiers are given in dotted form so this module needs no X.509 library.
public enum PushCertificateFields {
    /// Subject attribute `UID` (`0.9.2342.19200300.100.1.1`): the bundle id the certificate is for.
    public static let userIDAttribute = "0.9.2342.19200300.100.1.1"
    /// Extension present when the certificate may use the development environment.
    public static let developmentExtension = "1.2.840.113635.100.6.3.1"
    /// Extension present when the certificate may use the production environment.
    public static let productionExtension = "1.2.840.113635.100.6.3.2"
    /// Extension listing every topic a universal certificate covers (the bundle id and its
    /// `.voip`, `.complication`, … variants), as a sequence of UTF-8 strings.
    public static let topicsExtension = "1.2.840.113635.100.6.3.6"
    /// The common name prefix of a universal certificate (`Apple Push Services: <bundle id>`).
    public static let commonNamePrefix = "Apple Push Services: "

    /// The environments named by a certificate's extensions; empty when it names none.
    public static func environments(extensionOIDs: some Sequence<String>) -> Set<APNsEnvironment> {
        var environments: Set<APNsEnvironment> = []
        for oid in extensionOIDs {
            if oid == developmentExtension { environments.insert(.development) }
            if oid == productionExtension { environments.insert(.production) }
        }
        return environments
    }
}
