#include "size_field_text.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace gemmscope {

namespace {

std::optional<long long> positive(const QString &digits)
{
    bool ok = false;
    const long long value = digits.toLongLong(&ok);
    return ok && value > 0 ? std::optional<long long>(value) : std::nullopt;
}

} // namespace

std::optional<ProblemSize> parseSizeFieldText(const QString &text)
{
    // "4096", "4096³", "4096^3": one number for the three.
    static const QRegularExpression square(QStringLiteral("^\\s*(\\d+)\\s*(?:\\x{00B3}|\\^\\s*3)?\\s*$"));
    // "8192x4096x6144", "8192 x 4096 x 6144", "8192×4096×6144".
    static const QRegularExpression full(
        QStringLiteral("^\\s*(\\d+)\\s*[xX\\x{00D7}]\\s*(\\d+)\\s*[xX\\x{00D7}]\\s*(\\d+)\\s*$"));
    if (const QRegularExpressionMatch m = square.match(text); m.hasMatch()) {
        const std::optional<long long> side = positive(m.captured(1));
        return side ? std::optional<ProblemSize>(ProblemSize{*side, *side, *side}) : std::nullopt;
    }
    if (const QRegularExpressionMatch m = full.match(text); m.hasMatch()) {
        const std::optional<long long> mm = positive(m.captured(1)), n = positive(m.captured(2)),
                                       k = positive(m.captured(3));
        return mm && n && k ? std::optional<ProblemSize>(ProblemSize{*mm, *n, *k}) : std::nullopt;
    }
    return std::nullopt;
}

QString sizeFieldFormatText()
{
    return QCoreApplication::translate("SizeField",
                                       "The size must be one number for a square problem (4096 or 4096³) "
                                       "or M x N x K (8192x4096x6144).");
}

} // namespace gemmscope
