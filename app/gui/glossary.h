// Help > Glossary: the words and abbreviations the window uses without spelling them out (a
// roofline's "AI", "p20–p80", "sectors per request", "SASS", "burst"…), each in a sentence or two
// and with where it appears, so that a new user never has to leave the window to read a view.
#pragma once

#include <QList>
#include <QString>

namespace gemmscope {

struct GlossaryEntry {
    QString term;    // as the window writes it
    QString meaning; // plain text
    QString where;   // the views that use it
};

// Alphabetical by term, case-insensitive.
const QList<GlossaryEntry> &glossary();
// The glossary as an HTML table (terms and text escaped).
QString glossaryHtml();

} // namespace gemmscope
