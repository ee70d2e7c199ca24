package lds.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.miscellaneous.ASCIIFoldingFilter;
import org.apache.lucene.analysis.util.CharTokenizer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.LongPoint;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopFieldCollectorManager;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.QueryBuilder;

/**
 * Apache Lucene as the peer of bench/search.ts: indexes the benchmark's generated documents from
 * its CSV file in one thread and answers its queries, over a line protocol on stdin/stdout
 * (requests tab-separated, answers one JSON object a line; bench/lib/lucene-peer.ts speaks it):
 *
 *   field NAME COLUMN KIND BOOST DEFAULT   a field of the CSV (KIND text|keyword|date|int|id), in column order
 *   index CSV DIR                          → {"docs","seconds","cpuSeconds","mergeSeconds","bytes"}
 *   search SORT TEXT PHRASE FIELD FILTER_FIELD FILTER_VALUE RANGE_FIELD FROM TO
 *                                          → {"hits","ids":[…]}; SORT score|FIELDNAME (descending),
 *                                            PHRASE 0|1, FIELD a field name or * (the default fields),
 *                                            FILTER_FIELD and RANGE_FIELD empty for none, FROM/TO YYYY-MM-DD
 *   quit (or end of input)
 *
 * Text is analysed as ours is (domain/search/analyzer.ts): runs of letters and digits, lower
 * case, accents folded; so the two engines index the same tokens and their counts are comparable.
 * Counts are exact (total hits tracked to the end), as ours and PostgreSQL's are.
 */
public final class LuceneSearchPeer {
  private record FieldSpec(String name, String kind, float boost, boolean dflt) {}

  private static final int PAGE = 20;
  private final List<FieldSpec> fields = new ArrayList<>();
  private final Analyzer analyzer = new Analyzer() {
    @Override
    protected TokenStreamComponents createComponents(String field) {
      Tokenizer source = CharTokenizer.fromTokenCharPredicate(Character::isLetterOrDigit);
      TokenStream stream = new ASCIIFoldingFilter(new LowerCaseFilter(source));
      return new TokenStreamComponents(source, stream);
    }
  };
  private final QueryBuilder builder = new QueryBuilder(analyzer);
  private IndexSearcher searcher;

  public static void main(String[] args) throws IOException {
    new LuceneSearchPeer().serve(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), System.out);
  }

  private void serve(BufferedReader in, PrintStream out) throws IOException {
    for (String line; (line = in.readLine()) != null; ) {
      String[] a = line.split("\t", -1);
      try {
        switch (a[0]) {
          case "field" -> { fields.add(new FieldSpec(a[1], a[3], Float.parseFloat(a[4]), a[5].equals("1"))); out.println("{}"); }
          case "index" -> out.println(index(Path.of(a[1]), Path.of(a[2])));
          case "search" -> out.println(search(a));
          case "quit" -> { return; }
          default -> out.println(error("unknown command " + a[0]));
        }
      } catch (Exception e) {
        out.println(error(e.toString()));
      }
      out.flush();
    }
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private String index(Path csv, Path dir) throws IOException {
    deleteTree(dir);
    long cpu0 = processCpuNanos();
    long t0 = System.nanoTime();
    IndexWriterConfig config = new IndexWriterConfig(analyzer)
        .setSimilarity(new BM25Similarity())
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE)
        .setRAMBufferSizeMB(256);
    long docs = 0;
    FSDirectory directory = FSDirectory.open(dir);
    IndexWriter writer = new IndexWriter(directory, config);
    try (CSVParser parser = CSVFormat.DEFAULT.parse(Files.newBufferedReader(csv, StandardCharsets.UTF_8))) {
      for (CSVRecord r : parser) {
        writer.addDocument(document(r));
        docs++;
      }
    }
    writer.commit();
    // searchable from here: merges still running are left out of the rate, as the benchmark does for ours
    double seconds = (System.nanoTime() - t0) / 1e9;
    double cpuSeconds = (processCpuNanos() - cpu0) / 1e9;
    long t1 = System.nanoTime();
    writer.close();
    double mergeSeconds = (System.nanoTime() - t1) / 1e9;
    searcher = new IndexSearcher(DirectoryReader.open(directory));
    searcher.setSimilarity(new BM25Similarity());
    long bytes = 0;
    for (String f : directory.listAll()) bytes += directory.fileLength(f);
    return String.format("{\"docs\":%d,\"seconds\":%.3f,\"cpuSeconds\":%.3f,\"mergeSeconds\":%.3f,\"bytes\":%d,\"segments\":%d}",
        docs, seconds, cpuSeconds, mergeSeconds, bytes, searcher.getIndexReader().leaves().size());
  }

  private Document document(CSVRecord r) {
    Document d = new Document();
    for (int i = 0; i < fields.size(); i++) {
      FieldSpec f = fields.get(i);
      String v = r.get(i);
      if (v.isEmpty()) continue;
      switch (f.kind) {
        case "text" -> d.add(new TextField(f.name, v, Field.Store.NO));
        case "keyword" -> d.add(new StringField(f.name, v.toLowerCase().trim(), Field.Store.NO));
        case "int" -> d.add(new IntPoint(f.name, Integer.parseInt(v)));
        case "date" -> {
          long day = LocalDate.parse(v).toEpochDay();
          d.add(new LongPoint(f.name, day));
          d.add(new NumericDocValuesField(f.name, day));
        }
        case "id" -> d.add(new StoredField(f.name, Long.parseLong(v)));
        default -> throw new IllegalArgumentException("field " + f.name + ": unknown kind " + f.kind);
      }
    }
    return d;
  }

  private String search(String[] a) throws IOException {
    if (searcher == null) return error("nothing indexed yet");
    String sort = a[1], text = a[2], field = a[4];
    boolean phrase = a[3].equals("1");
    Query main = textQuery(text, phrase, field);
    BooleanQuery.Builder q = new BooleanQuery.Builder().add(main, Occur.MUST);
    if (!a[5].isEmpty()) q.add(new TermQuery(new Term(a[5], a[6].toLowerCase().trim())), Occur.FILTER);
    if (!a[7].isEmpty()) q.add(LongPoint.newRangeQuery(a[7], LocalDate.parse(a[8]).toEpochDay(), LocalDate.parse(a[9]).toEpochDay()), Occur.FILTER);
    Query query = q.build();
    TopDocs top = sort.equals("score")
        ? searcher.search(query, new TopScoreDocCollectorManager(PAGE, null, Integer.MAX_VALUE))
        : searcher.search(query, new TopFieldCollectorManager(new Sort(new SortField(sort, SortField.Type.LONG, true)), PAGE, null, Integer.MAX_VALUE));
    StringBuilder json = new StringBuilder("{\"hits\":").append(top.totalHits.value()).append(",\"ids\":[");
    var stored = searcher.storedFields();
    for (int i = 0; i < top.scoreDocs.length; i++) {
      ScoreDoc sd = top.scoreDocs[i];
      if (i > 0) json.append(',');
      json.append(stored.document(sd.doc, Set.of("id")).getField("id").numericValue().longValue());
    }
    return json.append("]}").toString();
  }

  /** The words (all of them) or the phrase in one field, or in each default field (boosted), any of them matching. */
  private Query textQuery(String text, boolean phrase, String field) {
    List<FieldSpec> targets = field.equals("*")
        ? fields.stream().filter(FieldSpec::dflt).toList()
        : fields.stream().filter(f -> f.name.equals(field)).toList();
    if (targets.isEmpty()) throw new IllegalArgumentException("no text field " + field);
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    for (FieldSpec f : targets) {
      Query q = phrase ? builder.createPhraseQuery(f.name, text) : builder.createBooleanQuery(f.name, text, Occur.MUST);
      if (q == null) continue; // no token in the text
      any.add(f.boost == 1f ? q : new BoostQuery(q, f.boost), Occur.SHOULD);
    }
    BooleanQuery built = any.build();
    return built.clauses().isEmpty() ? new MatchNoDocsQuery() : built.clauses().size() == 1 ? built.clauses().get(0).query() : built;
  }

  private static String error(String message) {
    return "{\"error\":\"" + message.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ") + "\"}";
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) return;
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
    }
  }
}
