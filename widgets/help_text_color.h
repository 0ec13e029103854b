// The colour of the window's quiet text: help under a field, a stage's summary, the second line of
// a list row, a chart's hint. It was the palette's PlaceholderText (the Fusion palette's is the text
// colour at half opacity: #777 on #efefef, 3.8:1) or Qt::gray on a chart (#a0a0a4 on white,
// 2.6:1), which a no-context review found hard to read. Here one function picks it: the quiet
// colour the palette offers, moved toward the text colour just far enough that it reaches WCAG's
// 4.5:1 against the backgrounds it is read on, so it stays quieter than text yet readable, in a
// light palette and a dark one alike.
#pragma once

#include <QColor>
#include <QPalette>
#include <initializer_list>

class QWidget;

namespace gemmscope {

// WCAG 2's contrast ratio of `a` drawn on the opaque `b` (a translucent `a` blended over it): 1 (the
// same) to 21 (black on white).
double contrastRatio(const QColor &a, const QColor &b);

inline constexpr double kReadableContrast = 4.5; // WCAG AA for text of normal size

// `quiet` (blended over the first background where translucent), moved toward `text` until its
// contrast against every one of `backgrounds` is at least kReadableContrast; `text` itself where
// even that falls short.
QColor readableQuietColor(const QColor &quiet, const QColor &text, std::initializer_list<QColor> backgrounds);

// Help text in `palette`: its PlaceholderText made readable on its Window, a panel a few shades off
// it (a group box) and its Base (a label sits on the one, a list row on the other).
QColor helpTextColor(const QPalette &palette, QPalette::ColorGroup group = QPalette::Active);

// A chart's hint on its plot's background (white, as on paper).
QColor chartHintColor(const QColor &background = Qt::white);

// `widget` (a label) writes in helpTextColor() of the palette it inherits, and again whenever that
// palette changes (a switch to a dark theme).
void showAsHelpText(QWidget *widget);

// The application palette's PlaceholderText (a field's placeholder, any view that paints with it)
// becomes helpTextColor() of that palette, and again whenever the palette changes. main() calls it.
void keepPlaceholderTextReadable();

} // namespace gemmscope
