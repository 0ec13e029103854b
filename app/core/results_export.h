// The results table as a file, for File > Export with a .csv or .json name: .csv holds the
// table's columns (cells a spreadsheet would run as formulas neutralised, csv_field.h), .json every
// run as the session stores it. Replaced whole or left as it was (writeFileAtomically).
#pragma once

#include <QString>
#include <optional>

namespace gemmscope {

class ResultsModel;
class Session;

// True for the suffixes exportResults writes (csv, json; any case).
bool isResultsExport(const QString &path);

// nullopt when written, else the sentence saying why not (the file is then unchanged).
std::optional<QString> exportResults(const QString &path, const ResultsModel &model, const Session &session);

} // namespace gemmscope
