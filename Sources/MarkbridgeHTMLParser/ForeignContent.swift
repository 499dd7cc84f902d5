@_spi(MarkbridgeBytes) import MarkbridgeBytes
@_spi(InlineTraversal) import MarkbridgeIR

/// SVG and MathML: the name adjustments the HTML standard makes for foreign elements and
/// attributes, so `<svg viewbox>` becomes `viewBox` and `xlink:href` keeps its prefix.
enum ForeignContent {
    /// A start tag adjusted for its foreign namespace: tag name case (SVG), attribute name case,
    /// and namespaced attributes.
    static func adjust(_ token: HTMLTagToken, namespace: HTMLNamespace) -> HTMLTagToken {
        var adjusted = token
        if namespace == .svg, let name = svgTagNames[token.name] { adjusted.name = name }
        adjusted.attributes = HTMLTokenAttributes(token.attributes.list.map { attribute in
            var attribute = attribute
            if namespace == .svg, let name = svgAttributeNames[attribute.name] {
                attribute.name = name
            } else if namespace == .mathml, attribute.name == "definitionurl" {
                attribute.name = "definitionURL"
            }
            if let (prefix, local) = foreignAttributes[attribute.name] {
                attribute.prefix = prefix
                attribute.name = local
            }
            return attribute
        })
        return adjusted
    }

    /// Start tags that break out of foreign content back into HTML.
    static let breakoutTags: HTMLTagSet = [
        .b, .big, .blockquote, .body, .br, .center, .code, .dd, .div, .dl, .dt, .em, .embed, .h1, .h2, .h3, .h4,
        .h5, .h6, .head, .hr, .i, .img, .li, .listing, .menu, .meta, .nobr, .ol, .p, .pre, .ruby, .s, .small,
        .span, .strong, .strike, .sub, .sup, .table, .tt, .u, .ul, .var,
    ]

    private static let foreignAttributes: [String: (String, String)] = [
        "xlink:actuate": ("xlink", "actuate"), "xlink:arcrole": ("xlink", "arcrole"), "xlink:href": ("xlink", "href"),
        "xlink:role": ("xlink", "role"), "xlink:show": ("xlink", "show"), "xlink:title": ("xlink", "title"),
        "xlink:type": ("xlink", "type"), "xml:lang": ("xml", "lang"), "xml:space": ("xml", "space"),
        "xmlns:xlink": ("xmlns", "xlink"),
    ]

    static let svgTagNames: [String: String] = Dictionary(uniqueKeysWithValues: [
        "altGlyph", "altGlyphDef", "altGlyphItem", "animateColor", "animateMotion", "animateTransform", "clipPath",
        "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix", "feDiffuseLighting",
        "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA", "feFuncB", "feFuncG", "feFuncR",
        "feGaussianBlur", "feImage", "feMerge", "feMergeNode", "feMorphology", "feOffset", "fePointLight",
        "feSpecularLighting", "feSpotLight", "feTile", "feTurbulence", "foreignObject", "glyphRef", "linearGradient",
        "radialGradient", "textPath",
    ].map { ($0.asciiLowercased(), $0) })

    private static let svgAttributeNames: [String: String] = Dictionary(uniqueKeysWithValues: [
        "attributeName", "attributeType", "baseFrequency", "baseProfile", "calcMode", "clipPathUnits",
        "diffuseConstant", "edgeMode", "filterUnits", "glyphRef", "gradientTransform", "gradientUnits", "kernelMatrix",
        "kernelUnitLength", "keyPoints", "keySplines", "keyTimes", "lengthAdjust", "limitingConeAngle", "markerHeight",
        "markerUnits", "markerWidth", "maskContentUnits", "maskUnits", "numOctaves", "pathLength",
        "patternContentUnits", "patternTransform", "patternUnits", "pointsAtX", "pointsAtY", "pointsAtZ",
        "preserveAlpha", "preserveAspectRatio", "primitiveUnits", "refX", "refY", "repeatCount", "repeatDur",
        "requiredExtensions", "requiredFeatures", "specularConstant", "specularExponent", "spreadMethod",
        "startOffset", "stdDeviation", "stitchTiles", "surfaceScale", "systemLanguage", "tableValues", "targetX",
        "targetY", "textLength", "viewBox", "viewTarget", "xChannelSelector", "yChannelSelector", "zoomAndPan",
    ].map { ($0.asciiLowercased(), $0) })
}

/// The rules for parsing tokens in foreign content (HTML standard 13.2.6.5).
extension HTMLTreeBuilder {
    mutating func isMathMLTextIntegrationPoint(_ element: Int32) -> Bool {
        let stored = tree.nodes[Int(element)]
        return stored.namespace == .mathml && ([.mi, .mo, .mn, .ms, .mtext] as HTMLTagSet).contains(stored.tag)
    }

    mutating func isHTMLIntegrationPoint(_ element: Int32) -> Bool {
        let stored = tree.nodes[Int(element)]
        switch stored.namespace {
        case .svg:
            return ([.foreignObject, .desc, .title] as HTMLTagSet).contains(stored.tag)
        case .mathml:
            guard stored.tag == .annotationXML else { return false }
            let encoding = tree.storedAttributes(of: element).first { $0.prefix == nil && $0.name == "encoding" }?.value.asciiLowercased()
            return encoding == "text/html" || encoding == "application/xhtml+xml"
        case .html:
            return false
        }
    }

    mutating func processForeignContent(_ token: TreeToken) {
        switch token {
        case .characters(let run, let offset):
            insertCharacters(Self.replacingNulls(run), offset: offset)
            if run.contains(where: { !Self.isWhitespace($0) && $0 != 0 }) { framesetOK = false }
        case .comment(let data, let offset):
            insertComment(data, offset: offset)
        case .doctype:
            return
        case .startTag(let tag):
            let breaksOut = ForeignContent.breakoutTags.contains(tag.tag)
                || tag.tag == .font && (tag.attributes.value(named: "color") != nil || tag.attributes.value(named: "face") != nil
                    || tag.attributes.value(named: "size") != nil)
            if breaksOut {
                popUntilHTMLOrIntegrationPoint()
                process(token, in: mode)
                return
            }
            let namespace = adjustedCurrentNode.map { tree.nodes[Int($0)].namespace } ?? .html
            let adjusted = ForeignContent.adjust(tag, namespace: namespace)
            if insertFlattenableElement(for: adjusted, namespace: namespace) != nil, tag.isSelfClosing { pop() }
        case .endTag(let tag):
            if tag.tag == .br || tag.tag == .p {
                popUntilHTMLOrIntegrationPoint()
                process(token, in: mode)
                return
            }
            foreignEndTag(tag, token)
        case .endOfFile:
            return
        }
    }

    private mutating func popUntilHTMLOrIntegrationPoint() {
        while let current = currentNode, tree.nodes[Int(current)].namespace != .html,
              !isMathMLTextIntegrationPoint(current), !isHTMLIntegrationPoint(current) {
            pop()
        }
    }

    private mutating func foreignEndTag(_ tag: HTMLTagToken, _ token: TreeToken) {
        var index = openElements.count - 1
        while index > 0 {
            let element = openElements[index]
            if tree.nodeName(element).asciiLowercased() == tag.name {
                while openElements.count > index { pop() }
                return
            }
            index -= 1
            if tree.nodes[Int(openElements[index])].namespace == .html {
                process(token, in: mode)
                return
            }
        }
    }
}
