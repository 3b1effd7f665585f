import Foundation
import HeraldCore

/// Answers one APNs request as Apple does: path and method, authentication, headers and
/// payload (through HeraldCore's linter), injected faults, then the device (registration,
/// topic, environment, burst) and delivery or storage.
struct RequestEvaluator: Sendable {
    let state: SandboxState
    let environment: APNsEnvironment
    let tokenLinter = PayloadLinter(options: LintOptions(authentication: .token))
    let certificateLinter = PayloadLinter(options: LintOptions(authentication: .certificate))

    init(state: SandboxState) {
        self.state = state
        self.environment = state.configuration.environment
    }

    func evaluate(_ request: SandboxRequest, connection: ConnectionAuthentication) -> SandboxResponse {
        connection.streamsServed += 1
        var response = answer(request, connection: connection)
        // Accepted notifications are counted by the state as it takes them (one lock per push).
        if response.status != 200 { state.count(status: response.status, reason: response.reason) }
        if state.hasFaults {
            let fault = state.faults
            if let limit = fault.resetAfterStreams, connection.streamsServed >= limit { response.reset = true }
            if let limit = fault.goAwayAfterStreams, connection.streamsServed >= limit, response.goAway == nil { response.goAway = .shutdown }
        }
        return response
    }

    private func answer(_ request: SandboxRequest, connection: ConnectionAuthentication) -> SandboxResponse {
        // apns-id: echoed as received when valid (Apple echoes the value, in its case); a bad one
        // is answered with a fresh id.
        let givenID = request.header(HeaderName.id)
        let parsedID = givenID.flatMap { try? NotificationID($0) }
        let apnsID = parsedID != nil ? givenID! : NotificationID(using: &connection.random).headerValue

        guard request.method == "POST" else { return .failure(.methodNotAllowed, apnsID: apnsID) }
        guard request.path.hasPrefix(PushNotification.pathPrefix) else { return .failure(.badPath, apnsID: apnsID) }
        let tokenText = request.path.dropFirst(PushNotification.pathPrefix.count)
        guard !tokenText.isEmpty else { return .failure(.missingDeviceToken, apnsID: apnsID) }
        guard tokenText.utf8.allSatisfy(Self.isHexDigit), tokenText.utf8.count.isMultiple(of: 2) else {
            return .failure(.badDeviceToken, apnsID: apnsID)
        }
        let token = tokenText.utf8.contains { $0 >= 0x41 && $0 <= 0x46 } ? tokenText.lowercased() : String(tokenText)

        // Authentication.
        let authentication: AuthenticationMethod = connection.certificate == nil ? .token : .certificate
        var verifiedToken: VerifiedProviderToken?
        if let certificate = connection.certificate {
            if certificate.problem != nil { return .failure(.badCertificate, apnsID: apnsID) }
            guard certificate.allows(environment) else { return .failure(.badCertificateEnvironment, apnsID: apnsID) }
        } else {
            switch verify(request.authorization, connection: connection) {
            case .success(let token): verifiedToken = token
            case .failure(let reason): return .failure(reason, apnsID: apnsID)
            }
        }

        // Headers and payload, by the same rules lint applies.
        let linter = authentication == .token ? tokenLinter : certificateLinter
        let headers = request.headers
        let idIsValid = givenID == nil || parsedID != nil
        let lintReason: APNsReason?
        if idIsValid, let memo = connection.lintMemo, memo.matches(headers: headers, body: request.body) {
            lintReason = memo.reason
        } else {
            let diagnostics = linter.lint(payload: request.body, headers: headers)
            lintReason = diagnostics.first { $0.severity == .error }.map { $0.reason ?? .badPayload }
            if idIsValid { connection.lintMemo = LintMemo(headers: headers, body: request.body, reason: lintReason) }
        }
        if let lintReason { return .failure(lintReason, apnsID: apnsID) }

        let pushType = request.header(HeaderName.pushType).map(PushType.init(rawValue:))
        var topic = request.header(HeaderName.topic)
        if let certificate = connection.certificate {
            if topic == nil {
                guard certificate.topics.count == 1 else { return .failure(.missingTopic, apnsID: apnsID) }
                topic = certificate.topics[0]
            }
            let bundle = (pushType ?? .alert).bundleID(fromTopic: topic!)
            guard certificate.topics.contains(topic!) || certificate.topics.contains(bundle) else {
                return .failure(.topicDisallowed, apnsID: apnsID)
            }
            if pushType?.requiresTokenAuthentication == true { return .failure(.topicDisallowed, apnsID: apnsID) }
        }
        guard let topic else { return .failure(.missingTopic, apnsID: apnsID) }

        var response = deliver(request, headers: headers, token: token, topic: topic, pushType: pushType, apnsID: apnsID, connection: connection)
        if verifiedToken != nil, !connection.unlocked {
            connection.unlocked = true
            response.unlockStreams = true
        }
        return response
    }

    private func deliver(
        _ request: SandboxRequest, headers: [(name: String, value: String)], token: String, topic: String, pushType: PushType?,
        apnsID: String, connection: ConnectionAuthentication
    ) -> SandboxResponse {
        let fault = state.hasFaults ? state.nextFault() : (answer: nil, latency: 0, goAwayAfter: nil, resetAfter: nil)
        var response: SandboxResponse
        if let answer = fault.answer {
            let timestamp = answer.status == 410 ? APNsErrorBody.milliseconds(state.clock.now) : nil
            response = .failure(answer.reason, apnsID: apnsID, timestamp: timestamp)
        } else {
            let uniqueID = environment == .development ? NotificationID(using: &connection.random).headerValue : nil
            let notification = SandboxNotification(
                id: apnsID, uniqueID: uniqueID, token: token, topic: topic, pushType: pushType?.rawValue,
                priority: request.header(HeaderName.priority).flatMap(Int.init) ?? 10,
                collapseID: request.header(HeaderName.collapseID),
                expiration: request.header(HeaderName.expiration).flatMap { Int64($0) },
                headers: headers.map { .init(name: $0.name, value: $0.value) },
                payload: String(decoding: request.body, as: UTF8.self),
                receivedAt: state.clock.now, deliveredAt: nil
            )
            if let failure = state.accept(notification, bundleTopic: topic) {
                let timestamp = failure.timestamp.map(APNsErrorBody.milliseconds)
                response = .failure(failure.reason, apnsID: apnsID, timestamp: timestamp)
            } else {
                response = .success(apnsID: apnsID, uniqueID: uniqueID)
            }
        }
        response.delayMilliseconds = fault.latency
        return response
    }

    /// Token authentication with a per-connection cache: a token the connection already
    /// presented is only checked for age, not verified again.
    private func verify(_ authorization: String?, connection: ConnectionAuthentication) -> Result<VerifiedProviderToken, APNsReason> {
        let now = state.clock.now
        if let authorization, authorization == connection.lastAuthorization, let cached = connection.lastVerified {
            return cached.isFresh(at: now) ? .success(cached) : .failure(.expiredProviderToken)
        }
        let verified: VerifiedProviderToken
        switch state.verifyToken(authorization: authorization, now: now) {
        case .success(let token): verified = token
        case .failure(let rejection): return .failure(rejection.reason)
        }
        if let problem = state.keyProblem(keyID: verified.keyID) { return .failure(problem) }
        // A connection carries one team's tokens; another team's key is unrelated to the first.
        if let team = connection.teamID, team != verified.teamID {
            return .failure(.unrelatedKeyIDInToken)
        }
        guard state.noteProviderToken(verified) else { return .failure(.tooManyProviderTokenUpdates) }
        if connection.teamID == nil {
            connection.teamID = verified.teamID
        }
        connection.lastAuthorization = authorization
        connection.lastVerified = verified
        return .success(verified)
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
    }
}
