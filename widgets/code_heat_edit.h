// A read-only code editor with a heat margin: beside each line that a profile's PC samples fall
// on, a colour strip as hot as the line's share of the samples, the share and the line's first
// stall reason; its tooltip lists the reasons in words. Without heat it is a plain editor (no
// margin), so the Source and SASS tabs read as before until a profile comes.
#pragma once

#include <QHash>
#include <QPlainTextEdit>

namespace gemmscope {

class CodeHeatEdit : public QPlainTextEdit {
    Q_OBJECT

public:
    struct LineHeat {
        double share = 0;                // of all the profile's samples, [0, 1]
        double heat = 0;                 // relative to the hottest line shown, [0, 1]: the strip's intensity
        QString label;                   // "46 % MIO throttle"
        QString tooltip;                 // plain text
        unsigned reasonColor = 0x888888; // the first reason's colour (0xRRGGBB)
    };

    explicit CodeHeatEdit(QWidget *parent = nullptr);

    // Heat by block number (0-based line of the document); an empty map removes the margin.
    void setLineHeat(const QHash<int, LineHeat> &heat);
    const QHash<int, LineHeat> &lineHeat() const { return m_heat; }
    int marginWidth() const;
    // Source line numbers in the margin (the Source tab: the hot-lines table names "file:line").
    void setLineNumbers(bool on);
    bool lineNumbers() const { return m_lineNumbers; }
    QString marginTooltipAt(int y) const; // the tooltip of the line at viewport height y
    QString marginText(int block) const;  // the label as the margin prints it (elided where it must be)
    void scrollToLine(int block);         // puts the cursor there and centres it

    // The colour of the strip for a heat in [0, 1]: the base colour blended towards red.
    static QColor heatColor(double heat, const QColor &base);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    friend class CodeHeatMargin;
    void paintMargin(QPaintEvent *event);
    void updateMargins();

    int numberWidth() const; // the line numbers' part of the margin; 0 without them
    int heatWidth() const;   // the heat's part; 0 without heat

    QWidget *m_margin;
    QHash<int, LineHeat> m_heat;
    bool m_lineNumbers = false;
};

} // namespace gemmscope
