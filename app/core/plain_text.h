// Plain text (anything a file can say: run ids, GPU names, messages) as rich text that reads
// exactly as written. QToolTip, and a QLabel or an item view's tooltip left on Qt::AutoText, render
// text as HTML when it merely looks like markup: a crafted session's `<img src=...>` or `<h1>`
// would be drawn. Escaped, with line breaks as <br> and spaces kept (white-space: pre, so a line
// never wraps, as plain text does not), it is shown verbatim.
//
// The rule for every widget (tst_plain_text_sinks walks them all with a hostile session): a QLabel
// that shows such text is Qt::PlainText; a tooltip, an item's Qt::ToolTipRole or a rich-text label
// that includes it takes it through plainTextAsHtml (charts: plainTooltip, the same function).
#pragma once

#include <QString>

namespace gemmscope {

inline QString plainTextAsHtml(const QString &text)
{
    QString html = text.toHtmlEscaped();
    html.replace(QLatin1Char('\n'), QLatin1String("<br>"));
    return QStringLiteral("<p style=\"white-space:pre\">") + html + QStringLiteral("</p>");
}

} // namespace gemmscope
