#include "limit_spin_box.h"

namespace gemmscope {

LimitSpinBox::LimitSpinBox(QString fieldName, QWidget *parent)
    : QSpinBox(parent), m_fieldName(std::move(fieldName))
{
    connect(this, &QSpinBox::valueChanged, this, [this](int value) {
        if (m_refusedAt && *m_refusedAt != value) {
            m_refusedAt.reset();
            emit limitCleared();
        }
    });
}

QString LimitSpinBox::withoutAffixes(const QString &text) const
{
    QString t = text;
    if (!prefix().isEmpty() && t.startsWith(prefix()))
        t.remove(0, prefix().size());
    if (!suffix().isEmpty() && t.endsWith(suffix()))
        t.chop(suffix().size());
    return t.trimmed();
}

QString LimitSpinBox::limitSentence(const QString &typed) const
{
    const QString shown = withoutAffixes(typed);
    bool ok = false;
    const qlonglong value = locale().toLongLong(shown, &ok);
    const QString unit = suffix().trimmed().isEmpty() ? QString() : QLatin1Char(' ') + suffix().trimmed();
    if (ok && value > maximum())
        return tr("%1 is at most %2%3: %4 was not taken.").arg(m_fieldName).arg(maximum()).arg(unit, shown);
    if (ok && value < minimum())
        return tr("%1 is at least %2%3: %4 was not taken.").arg(m_fieldName).arg(minimum()).arg(unit, shown);
    return tr("%1 takes a whole number from %2 to %3%4: %5 was not taken.")
        .arg(m_fieldName)
        .arg(minimum())
        .arg(maximum())
        .arg(unit, shown);
}

void LimitSpinBox::report(const QString &typed) const
{
    // validate() and fixup() are const in QAbstractSpinBox; saying what was refused changes nothing
    // of the spin box itself.
    m_refusedAt = value();
    emit const_cast<LimitSpinBox *>(this)->limitHit(limitSentence(typed));
}

QValidator::State LimitSpinBox::validate(QString &input, int &pos) const
{
    const QValidator::State state = QSpinBox::validate(input, pos);
    // Invalid: this keystroke is about to be dropped. An empty field or a lone sign is still
    // being typed (Intermediate), as is a value below the minimum (it may grow): fixup() says
    // those when editing ends.
    if (state == QValidator::Invalid && !withoutAffixes(input).isEmpty())
        report(input);
    return state;
}

void LimitSpinBox::fixup(QString &input) const
{
    // Editing ended on a value that is not acceptable: QAbstractSpinBox puts the previous value
    // back after this.
    if (!withoutAffixes(input).isEmpty() && withoutAffixes(input) != QLatin1String("-"))
        report(input);
    QSpinBox::fixup(input);
}

} // namespace gemmscope
