// JvmChurn: an unrelated JVM beside the known-cause workloads: 3 threads
// compute over small arrays, allocating a fresh one now and then (the JIT
// compiles, the GC runs now and then), the way a background Java service
// keeps a machine busy.
public class JvmChurn {
    static volatile long sink;
    public static void main(String[] args) throws Exception {
        Thread[] ts = new Thread[3];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = new Thread(() -> {
                long s = 0;
                int[] a = new int[256];
                for (long n = 0;; n++) {
                    if ((n & 1023) == 0)
                        a = new int[256];
                    for (int k = 0; k < a.length; k++) a[k] = k * 31 + (int) s;
                    s += a[(int) (s & 255)];
                    sink = s;
                }
            }, "churn-" + i);
            ts[i].start();
        }
        for (Thread t : ts) t.join();
    }
}
