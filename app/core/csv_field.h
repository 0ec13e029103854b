// One CSV field, safe to open in a spreadsheet. Text from files and runners (host names, messages,
// run ids) is data: a field a spreadsheet would run as a formula (first character =, +, -, @, a tab
// or a carriage return: "=HYPERLINK(...)", "@SUM(...)") gets a leading apostrophe, as OWASP
// recommends, unless it is simply a number ("-1.5"). Fields with a comma, a quote or a line break
// are quoted.
#pragma once

#include <QString>

namespace gemmscope {

inline QString csvField(QString text)
{
    static const QString kFormulaStarts = QStringLiteral("=+-@\t\r");
    if (!text.isEmpty() && kFormulaStarts.contains(text.front())) {
        bool number = false;
        text.toDouble(&number);
        if (!number)
            text.prepend(QLatin1Char('\''));
    }
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) ||
        text.contains(QLatin1Char('\n')) || text.contains(QLatin1Char('\r')))
        text = QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
    return text;
}

} // namespace gemmscope
