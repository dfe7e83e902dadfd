/// One figure at the top of a report page: a name and its value, both shown as given (escaped).
///
///     ReportFact("accuracy", "86.2 %")
public struct ReportFact: Sendable, Equatable {
    /// What the figure is ("accuracy", "epochs").
    public var name: String
    /// The figure as shown ("86.2 %", "12").
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
