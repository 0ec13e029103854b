#include "help_text_color.h"

#include <QApplication>
#include <QEvent>
#include <QWidget>
#include <algorithm>
#include <cmath>

namespace gemmscope {

namespace {

// WCAG 2's relative luminance of an sRGB colour.
double luminance(const QColor &c)
{
    const auto linear = [](double v) {
        return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(c.redF()) + 0.7152 * linear(c.greenF()) + 0.0722 * linear(c.blueF());
}

QColor mixed(const QColor &from, const QColor &to, double t)
{
    const auto channel = [t](double a, double b) { return a + (b - a) * t; };
    return QColor::fromRgbF(float(channel(from.redF(), to.redF())),
                            float(channel(from.greenF(), to.greenF())),
                            float(channel(from.blueF(), to.blueF())));
}

QColor opaqueOver(const QColor &c, const QColor &background)
{
    return c.alpha() == 255 ? c : mixed(background, QColor(c.red(), c.green(), c.blue()), c.alphaF());
}

// `palette` with helpTextColor() as its `role` in every colour group, each group's colour read from
// the palette as it was; whether that changed it.
bool withHelpText(QPalette &palette, QPalette::ColorRole role)
{
    const QPalette read = palette;
    bool changed = false;
    for (const auto group : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        const QColor color = helpTextColor(read, group);
        if (palette.color(group, role) != color) {
            palette.setColor(group, role, color);
            changed = true;
        }
    }
    return changed;
}

// Re-applies helpTextColor() whenever the palette a help label inherits changes.
class HelpTextFollower : public QObject {
public:
    explicit HelpTextFollower(QWidget *widget) : QObject(widget) { apply(widget); }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::PaletteChange)
            apply(static_cast<QWidget *>(watched));
        return false;
    }

    static void apply(QWidget *widget)
    {
        // Only WindowText, the label's own: the roles helpTextColor() reads stay inherited, so
        // that a new theme's reach this widget.
        QPalette palette = widget->palette();
        if (withHelpText(palette, QPalette::WindowText)) // else setting it again would send the
            widget->setPalette(palette);                 // PaletteChange that called this
    }
};

// Re-applies helpTextColor() to the application palette's PlaceholderText when it changes.
class PlaceholderFollower : public QObject {
public:
    explicit PlaceholderFollower(QObject *parent) : QObject(parent) { apply(); }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (watched == qApp && event->type() == QEvent::ApplicationPaletteChange)
            apply();
        return false;
    }

    static void apply()
    {
        QPalette palette = QApplication::palette();
        if (withHelpText(palette, QPalette::PlaceholderText)) // else setting it again would send
            QApplication::setPalette(palette);                // the change that called this
    }
};

} // namespace

double contrastRatio(const QColor &a, const QColor &b)
{
    // A translucent `a` (Qt's default PlaceholderText is the text colour at half opacity) as it shows.
    const double la = luminance(opaqueOver(a, b)), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableQuietColor(const QColor &quiet, const QColor &text, std::initializer_list<QColor> backgrounds)
{
    const QColor first = backgrounds.size() > 0 ? *backgrounds.begin() : QColor(Qt::white);
    const QColor start = opaqueOver(quiet, first);
    const QColor end = opaqueOver(text, first);
    const auto readable = [&](const QColor &c) {
        return std::all_of(backgrounds.begin(), backgrounds.end(),
                           [&](const QColor &bg) { return contrastRatio(c, bg) >= kReadableContrast; });
    };
    // The least step toward the text colour that reads: 1/64 of the way at a time, each colour
    // checked as drawn (8 bits a channel).
    for (int step = 0; step <= 64; ++step) {
        const QColor c = mixed(start, end, step / 64.0).toRgb();
        if (readable(c))
            return c;
    }
    return end;
}

QColor helpTextColor(const QPalette &palette, QPalette::ColorGroup group)
{
    // Toward Text, not WindowText: showAsHelpText sets a label's WindowText to the result.
    const QColor window = palette.color(group, QPalette::Window);
    const QColor base = palette.color(group, QPalette::Base);
    const QColor text = palette.color(group, QPalette::Text);
    // A panel a few shades off the window too: Fusion fills a group box (the parameter panel's Stage)
    // with #ececec on its #efefef window, where 4.5:1 on the window alone read 4.45:1.
    return readableQuietColor(palette.color(group, QPalette::PlaceholderText), text,
                              {window, window.darker(106), window.lighter(106), base});
}

QColor chartHintColor(const QColor &background)
{
    const QColor text = contrastRatio(Qt::black, background) >= contrastRatio(Qt::white, background)
                            ? QColor(Qt::black)
                            : QColor(Qt::white);
    return readableQuietColor(QColor(Qt::gray), text, {background});
}

void showAsHelpText(QWidget *widget)
{
    widget->setForegroundRole(QPalette::WindowText);
    widget->installEventFilter(new HelpTextFollower(widget));
}

void keepPlaceholderTextReadable()
{
    qApp->installEventFilter(new PlaceholderFollower(qApp));
}

} // namespace gemmscope
