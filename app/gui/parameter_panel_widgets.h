// The parameter panel's small widgets, shared by its section builders (parameter_panel_sections.cpp)
// and its behaviour (parameter_panel.cpp).
#pragma once

#include <QComboBox>
#include <QString>

class QFormLayout;
class QLabel;
class QWidget;

namespace gemmscope {

class LimitSpinBox;

namespace panel {

// The red line under a field: hidden while it has nothing to say.
QLabel *noteLabel(const QString &objectName);

// M, N or K: a wide range, the catalog's constraints say what is wrong with a value.
LimitSpinBox *sizeSpin(const char *name);

// Row labels say their field's tooltip too: the words are where the eye starts.
void labelWithTip(QFormLayout *form, QWidget *field);

// A combo box whose closed face shows an entry's short form (kFaceRole, where it has one: the
// stage without its worklog step, which the description under it gives) and ends it with "…" where
// even that does not fit, instead of cutting it off mid-word; the popup lists the entries whole, as
// wide as the longest.
class ElidingComboBox : public QComboBox {
public:
    using QComboBox::QComboBox;
    static constexpr int kFaceRole = Qt::UserRole + 1;
    QString faceText() const
    {
        if (currentIndex() < 0)
            return placeholderText();
        const QString face = currentData(kFaceRole).toString();
        return face.isEmpty() ? currentText() : face;
    }

protected:
    void paintEvent(QPaintEvent *) override;
    void showPopup() override;
};

} // namespace panel
} // namespace gemmscope
