/// Stream ids this side reset lately, oldest forgotten first: frames the peer sent before it
/// saw the reset are ignored for these (RFC 9113 §5.1, "closed").
struct RecentlyResetStreams {
    private var ids: [Int32]
    private var next = 0
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        self.ids = []
        ids.reserveCapacity(self.capacity)
    }

    mutating func insert(_ id: Int32) {
        if ids.count < capacity {
            ids.append(id)
        } else {
            ids[next] = id
            next = (next + 1) % capacity
        }
    }

    func contains(_ id: Int32) -> Bool { ids.contains(id) }
}
