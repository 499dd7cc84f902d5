/// Whether a list item is a task and, if so, whether it is done: GitHub Flavored Markdown's
/// task list items (`- [ ] to do`, `- [x] done`), HTML's disabled checkbox at an item's start.
/// The raw values are markup JSON's `task` values.
public enum TaskState: String, Hashable, Sendable, CaseIterable {
    case unchecked
    case checked

    /// The state a GFM marker's character gives: GFM, task list items: a space is unchecked,
    /// `x` or `X` checked.
    public init(isChecked: Bool) {
        self = isChecked ? .checked : .unchecked
    }

    public var isChecked: Bool { self == .checked }
}
