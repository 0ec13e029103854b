#include "parameter_panel_widgets.h"

#include "limit_spin_box.h"

#include <QAbstractItemView>
#include <QCoreApplication>
#include <QFormLayout>
#include <QLabel>
#include <QStylePainter>

namespace gemmscope::panel {

LimitSpinBox *sizeSpin(const char *name)
{
    // A wide range so that a typed value is rarely refused: the catalog's constraints say what is
    // wrong with it (at least 1; fewer than 2^31 elements per matrix). Past the range the spin box
    // says its limit beside the field.
    auto *spin = new LimitSpinBox(QString::fromLatin1(name));
    spin->setObjectName(QStringLiteral("spin_%1").arg(QLatin1String(name)));
    spin->setRange(0, 1 << 20);
    spin->setAccelerated(true);
    spin->setToolTip(QCoreApplication::translate(
        "ParameterPanel", "1 to 1048576; each matrix must have fewer than 2^31 elements (32-bit indexing)."));
    return spin;
}

QLabel *noteLabel(const QString &objectName)
{
    auto *label = new QLabel;
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setStyleSheet(QStringLiteral("color: #c62828;"));
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->hide();
    return label;
}

void labelWithTip(QFormLayout *form, QWidget *field)
{
    if (QWidget *label = form->labelForField(field))
        label->setToolTip(field->toolTip());
}

void ElidingComboBox::paintEvent(QPaintEvent *)
{
    QStylePainter painter(this);
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    const QRect field =
        style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
    option.currentText = fontMetrics().elidedText(faceText(), Qt::ElideRight, field.width());
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

void ElidingComboBox::showPopup()
{
    view()->setMinimumWidth(view()->sizeHintForColumn(0) + 2 * view()->frameWidth() + 24);
    QComboBox::showPopup();
}

} // namespace gemmscope::panel
