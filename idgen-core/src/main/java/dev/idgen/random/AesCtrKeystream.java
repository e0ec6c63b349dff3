package dev.idgen.random;

import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;

/**
 * An AES-256-CTR keystream: the bytes AES gives for counter blocks 0, 1, 2, ... under a secret key,
 * replaced every {@link #REFILLS_PER_KEY} refills. The JDK's AES uses the AES-NI instructions where
 * the processor has them.
 *
 * <p><b>Re-keying.</b> Every key is used for at most {@link #REFILLS_PER_KEY} refills (64 KiB) and
 * then replaced: the next {@link #KEY_BYTES} bytes of its stream, which are never handed out, XOR
 * {@link #KEY_BYTES} fresh bytes from the {@link SecureRandom}, become the next key (the first key is
 * the fresh bytes alone). Both sides count: while the {@code SecureRandom} gives fresh bytes, a copy
 * of this object's state (a VM snapshot, a CRaC image) cannot tell what the next key will be, so two
 * copies part ways at their next re-key at the latest; and while the old key is secret, a
 * {@code SecureRandom} that repeats itself still does not make the next key guessable. XOR is
 * enough: the two inputs are independent, and each alone is uniform to whoever lacks the other.
 * {@link #reseed()} makes the next refill re-key that way at once.
 *
 * <p><b>Key erasure</b> (Bernstein's "fast-key-erasure" RNG, 2017, with AES-256 as the stream; the
 * counter restarts at 0 under each key, and since a key is never used twice no (key, counter) pair
 * repeats). Whoever later reads this object's state can compute the output since the last re-key
 * (at most 64 KiB, much of it still unread in the buffer) but nothing before it. Every key array made
 * here is zeroed once the cipher has it ({@link ErasableKey}); what remains is the JDK's: its AES
 * keeps a raw copy of the current key and its expanded round keys inside the {@link Cipher}, and
 * zeroes both when it is initialised with the next key (OpenJDK 17 and 25,
 * {@code com.sun.crypto.provider.AESCrypt}). Copies a moving garbage collector leaves behind are out
 * of reach of any Java code.
 *
 * <p>Used by one thread at a time (the holder of its stripe).
 */
final class AesCtrKeystream implements StripedRandom.Refill {

    static final int KEY_BYTES = 32;
    static final int REFILLS_PER_KEY = 16;

    private static final String TRANSFORMATION = "AES/CTR/NoPadding";
    private static final byte[] ZEROS = new byte[StripedRandom.BUFFER_BYTES];
    /** Each key is fresh, so the counter may start at 0 for every one; nothing secret is in the IV. */
    private static final IvParameterSpec COUNTER_ZERO = new IvParameterSpec(new byte[16]);

    private final SecureRandom fresh;
    private Cipher cipher;
    private int refillsLeft;
    /** The last key handed to the cipher, destroyed at once; kept only so the tests can look. */
    ErasableKey lastKey;

    /** @param fresh where the bytes mixed into every key come from */
    AesCtrKeystream(SecureRandom fresh) {
        this.fresh = fresh;
    }

    @Override
    public void fill(byte[] buffer) {
        if (buffer.length > ZEROS.length) {
            throw new IllegalArgumentException("buffer of " + buffer.length + " bytes; at most " + ZEROS.length);
        }
        try {
            if (refillsLeft == 0) {
                rekey();
            }
            encryptZeros(buffer);
            refillsLeft--;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK's " + TRANSFORMATION + " cipher failed", e);
        }
    }

    /**
     * The next refill makes a new key from fresh bytes, and the {@code SecureRandom} is asked to
     * reseed itself from its entropy source where it can (a {@code DRBG} can; {@code NativePRNG}
     * reads the operating system on every call anyway and cannot).
     */
    @Override
    public void reseed() {
        refillsLeft = 0;
        StripedRandom.Refill.tryReseed(fresh);
    }

    private void rekey() throws GeneralSecurityException {
        byte[] next = new byte[KEY_BYTES];
        byte[] entropy = new byte[KEY_BYTES];
        ErasableKey key = new ErasableKey(next);
        try {
            if (cipher == null) {
                cipher = Cipher.getInstance(TRANSFORMATION);
            } else {
                encryptZeros(next); // the old key's next bytes, never handed out
            }
            fresh.nextBytes(entropy);
            for (int i = 0; i < KEY_BYTES; i++) {
                next[i] ^= entropy[i];
            }
            cipher.init(Cipher.ENCRYPT_MODE, key, COUNTER_ZERO);
            refillsLeft = REFILLS_PER_KEY;
        } finally {
            key.destroy(); // zeroes next
            Arrays.fill(entropy, (byte) 0);
            lastKey = key;
        }
    }

    private void encryptZeros(byte[] out) throws GeneralSecurityException {
        int written = cipher.update(ZEROS, 0, out.length, out, 0);
        if (written != out.length) {
            throw new GeneralSecurityException(TRANSFORMATION + " gave " + written + " of " + out.length + " bytes");
        }
    }
}
