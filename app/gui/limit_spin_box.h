// A spin box that says so when a typed value is outside its range. QSpinBox drops such input
// silently: the keystroke that would pass the maximum is refused (999 in a field capped at 256
// stays 99), and a value left below the minimum is put back to the previous one when editing ends.
// This one still refuses them, but emits the sentence ("BM is at most 256: 999 was not taken.")
// for the panel to show beside the field.
#pragma once

#include <QSpinBox>
#include <optional>

namespace gemmscope {

class LimitSpinBox : public QSpinBox {
    Q_OBJECT
public:
    // `fieldName` is how the sentence names the field: "BM", "M", "Time budget".
    explicit LimitSpinBox(QString fieldName, QWidget *parent = nullptr);
    const QString &fieldName() const { return m_fieldName; }

    // "BM is at most 256: 999 was not taken." / "BM is at least 16: 4 was not taken." /
    // "BM takes a whole number from 16 to 256: 1x was not taken."
    QString limitSentence(const QString &typed) const;

signals:
    void limitHit(const QString &sentence);
    // A value other than the one shown at the refusal was taken: the sentence no longer applies.
    // (Putting the previous value back after a refusal re-emits valueChanged; that does not count.)
    void limitCleared();

protected:
    QValidator::State validate(QString &input, int &pos) const override;
    void fixup(QString &input) const override;

private:
    QString withoutAffixes(const QString &text) const;
    void report(const QString &typed) const;

    QString m_fieldName;
    mutable std::optional<int> m_refusedAt; // the value shown when input was last refused
};

} // namespace gemmscope
