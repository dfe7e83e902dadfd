import Foundation

/// A training setting (learning rate, warm-up, accumulation steps...) outside the range it needs, named
/// with its value: thrown before any step runs, so nothing trains with it.
///
///     throw TrainingSettingError(setting: "warmupRatio", value: "1.5", requirement: "between 0 and 1")
public struct TrainingSettingError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The setting's name, as the API spells it.
    public var setting: String
    /// The value given, as text.
    public var value: String
    /// What the value must be.
    public var requirement: String

    public init(setting: String, value: String, requirement: String) {
        self.setting = setting
        self.value = value
        self.requirement = requirement
    }

    public var description: String { "training setting \(setting) is \(value): it must be \(requirement)" }
    public var errorDescription: String? { description }
}
