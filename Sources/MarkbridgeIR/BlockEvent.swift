/// One step of a walk over a document's blocks, in the manner of cmark's iterator: a node is
/// entered, then (for a container) the nodes inside it, then it is exited. See
/// ``Document/blockEvents``.
public enum BlockEvent: Hashable, Sendable {
    /// The node begins; every node entered is exited, after the nodes inside it.
    case enter(BlockNode)
    /// The node ends, with the same value it was entered with.
    case exit(BlockNode)
}

/// A node of the tree a document's flat blocks stand for, as the HTML writer nests them:
/// containers (quotes, lists, items, tables, rows, cells, definition lists) and the blocks
/// whose text is shown (``block(_:)``). Indices are into ``Document/blocks``.
public enum BlockNode: Hashable, Sendable {
    /// A block quote (`<blockquote>`).
    case quote
    /// A bulleted list (`<ul>`); it holds ``listItem(block:)`` nodes only.
    case unorderedList
    /// A numbered list (`<ol>`) whose first item shows `start`: the number of the item block that
    /// begins it (1 when a deeper block does, as `<ol>` without `start`). It holds
    /// ``listItem(block:)`` nodes only.
    case orderedList(start: Int)
    /// A list item (`<li>`). `block` is the item's own block (an ``BlockKind/unorderedListItem``
    /// or ``BlockKind/orderedListItem(number:)``), whose text is the item's own and comes first
    /// in it as a ``block(_:)``; the blocks one ``Block/depth`` deeper follow inside it. Nil for
    /// an item that only holds deeper blocks (a list item around a quote that begins in a
    /// paragraph's place, say).
    case listItem(block: Int?)
    /// A table (`<table>`): its caption as a ``block(_:)``, if it has one, then its rows.
    case table
    /// A table row (`<tr>`), the ``BlockKind/tableRow(_:)`` block at this index: its cells follow.
    case tableRow(block: Int)
    /// The cell at index `cell` of the row's ``TableRow/cells`` (`<td>`, `<th>`): its text is
    /// the part of the row's text its ``TableCell/range`` covers.
    case tableCell(block: Int, cell: Int)
    /// A definition list (`<dl>`): its terms and definitions, as ``block(_:)`` nodes.
    case definitionList
    /// The block at this index, shown with its text: a paragraph, heading, quote paragraph,
    /// code block, image, embed, table caption, term, definition or rule, or a list item's own
    /// text (first inside its ``listItem(block:)``). Entered and exited with nothing between.
    case block(Int)
}
