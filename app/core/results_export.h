// The results as a file, for File > Export with a .csv or .json name. The CSV holds numbers, one
// column a quantity with its unit in the header (time_ms, tflops, pct_of_cublas_fp32, smem_bytes),
// never the table's display text ("8.128 ms", "14 % (registers)"): a spreadsheet sums and plots
// it as it is. Text cells a spreadsheet would run as formulas are neutralised (csv_field.h). The
// JSON holds every run as the session stores it (numbers, the runner's own fields). Replaced
// whole or left as it was (writeFileAtomically).
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope {

class ResultsModel;
class Session;

// True for the suffixes exportResults writes (csv, json; any case).
bool isResultsExport(const QString &path);

// The CSV's header, in column order ("run_id", "preset", ..., "time_ms", ...).
QStringList resultsCsvHeader();
// Every run of the model's session, one line each, under resultsCsvHeader().
QByteArray resultsCsv(const ResultsModel &model);

// What the export is named by default: "<session>-results" (the session file's name without its
// suffix, "session" for one never saved), to which the caller adds .csv or .json.
QString resultsExportBaseName(const QString &sessionPath);

// nullopt when written, else the sentence saying why not (the file is then unchanged).
std::optional<QString> exportResults(const QString &path, const ResultsModel &model, const Session &session);

} // namespace gemmscope
