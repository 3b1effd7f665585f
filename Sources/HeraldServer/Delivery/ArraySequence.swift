/// An array as an async sequence, for ``HeraldAPNs/APNsClient/send(all:)``.
struct ArraySequence<Element: Sendable>: AsyncSequence, Sendable {
    let elements: [Element]

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: IndexingIterator<[Element]>
        mutating func next() async -> Element? { base.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: elements.makeIterator()) }
}
