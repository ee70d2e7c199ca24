/*
 * SCRAM-SHA-512 credentials of outside consumers, through Kafka's Admin API (KafkaJS has no
 * AlterUserScramCredentials). Run from source by bin/commands/consumers.ts with the broker's jars:
 *
 *   java -cp '<kafka lib>/*' ScramUsers.java <bootstrap> list
 *   java -cp '<kafka lib>/*' ScramUsers.java <bootstrap> create|rotate|delete <name>
 *
 * The password comes on stdin, not as an argument: arguments are visible to every local user (ps).
 * Exit codes: 0 done, 3 `create` of an existing user or `delete` of an unknown one, 1 any other failure.
 */
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialDeletion;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.clients.admin.UserScramCredentialsDescription;

public class ScramUsers {
  private static final ScramMechanism MECHANISM = ScramMechanism.SCRAM_SHA_512;
  private static final int ITERATIONS = 8192;

  public static void main(String[] args) throws Exception {
    if (args.length < 2 || (!args[1].equals("list") && args.length < 3)) {
      System.err.println("usage: ScramUsers <bootstrap> list | create|rotate|delete <name>");
      System.exit(2);
    }
    Properties props = new Properties();
    props.put("bootstrap.servers", args[0]);
    props.put("default.api.timeout.ms", "30000");
    try (Admin admin = Admin.create(props)) {
      System.exit(run(admin, args[1], args.length > 2 ? args[2] : null));
    } catch (Exception e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      System.err.println(cause.getClass().getSimpleName() + ": " + cause.getMessage());
      System.exit(1);
    }
  }

  private static int run(Admin admin, String op, String name) throws Exception {
    switch (op) {
      case "list": {
        Map<String, UserScramCredentialsDescription> all = admin.describeUserScramCredentials().all().get();
        for (UserScramCredentialsDescription d : all.values()) {
          if (d.credentialInfos().stream().anyMatch(i -> i.mechanism() == MECHANISM)) System.out.println(d.name());
        }
        return 0;
      }
      case "create":
      case "rotate": {
        if (op.equals("create") && exists(admin, name)) {
          System.err.println("a SCRAM user named " + name + " already exists");
          return 3;
        }
        String password = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        if (password == null || password.isEmpty()) throw new IllegalArgumentException("no password on stdin");
        admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(name, new ScramCredentialInfo(MECHANISM, ITERATIONS), password))).all().get();
        return 0;
      }
      case "delete": {
        if (!exists(admin, name)) return 3;
        admin.alterUserScramCredentials(List.of(new UserScramCredentialDeletion(name, MECHANISM))).all().get();
        return 0;
      }
      default:
        throw new IllegalArgumentException("unknown operation " + op);
    }
  }

  private static boolean exists(Admin admin, String name) throws Exception {
    return admin.describeUserScramCredentials().all().get().containsKey(name);
  }
}
