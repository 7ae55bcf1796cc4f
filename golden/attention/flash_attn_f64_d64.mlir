entry @flash_attn_f64_d64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<f64>>, %arg2: tile<ptr<f64>>, %arg3: tile<ptr<f64>>, %arg4: tile<f32>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf64, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xf64, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xf64, strides=[64,1]>>, tile<i32> -> tile<32x64xf64>, token
  %9 = constant <i32: 0> : tile<i32>
  %10 = constant <i32: 4> : tile<i32>
  %11 = constant <i32: 1> : tile<i32>
  %12 = constant <f64: 0xFFF0000000000000> : tile<32x1xf64>
  %13 = constant <f64: 0.000000e+00> : tile<32x1xf64>
  %14 = constant <f64: 0.000000e+00> : tile<32x64xf64>
  %15, %16, %17, %18 = for %19 in (%9 to %10, step %11) : tile<i32> iter_values(%20 = %12, %21 = %13, %22 = %14, %23 = %8) -> (tile<32x1xf64>, tile<32x1xf64>, tile<32x64xf64>, token) {
    %24 = assume div_by<16>, %arg1 : tile<ptr<f64>>
    %25 = make_tensor_view %24, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf64, strides=[64,1]>
    %26 = make_partition_view %25 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xf64, strides=[64,1]>>
    %27, %28 = load_view_tko weak %26[%19, %2] token = %23 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xf64, strides=[64,1]>>, tile<i32> -> tile<32x64xf64>, token
    %29 = assume div_by<16>, %arg2 : tile<ptr<f64>>
    %30 = make_tensor_view %29, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf64, strides=[64,1]>
    %31 = make_partition_view %30 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xf64, strides=[64,1]>>
    %32, %33 = load_view_tko weak %31[%19, %2] token = %28 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xf64, strides=[64,1]>>, tile<i32> -> tile<32x64xf64>, token
    %34 = permute %27 [1, 0] : tile<32x64xf64> -> tile<64x32xf64>
    %35 = constant <f64: 0.000000e+00> : tile<32x32xf64>
    %36 = mmaf %7, %34, %35 : tile<32x64xf64>, tile<64x32xf64>, tile<32x32xf64>
    %37 = ftof %arg4  : tile<f32> -> tile<f64>
    %38 = reshape %37 : tile<f64> -> tile<1x1xf64>
    %39 = broadcast %38 : tile<1x1xf64> -> tile<32x32xf64>
    %40 = mulf %36, %39  : tile<32x32xf64>
    %41 = reduce %40 dim=1 identities=[0xFFF0000000000000 : f64] : tile<32x32xf64> -> tile<32xf64> 
    (%42: tile<f64>, %43: tile<f64>) {
      %44 = maxf %42, %43 : tile<f64>
      yield %44 : tile<f64>
    }
    %45 = reshape %41 : tile<32xf64> -> tile<32x1xf64>
    %46 = maxf %20, %45 : tile<32x1xf64>
    %47 = subf %20, %46  : tile<32x1xf64>
    %48 = exp %47  : tile<32x1xf64>
    %49 = mulf %21, %48  : tile<32x1xf64>
    %50 = broadcast %46 : tile<32x1xf64> -> tile<32x32xf64>
    %51 = subf %40, %50  : tile<32x32xf64>
    %52 = exp %51  : tile<32x32xf64>
    %53 = reduce %52 dim=1 identities=[0.000000e+00] : tile<32x32xf64> -> tile<32xf64> 
    (%54: tile<f64>, %55: tile<f64>) {
      %56 = addf %54, %55  : tile<f64>
      yield %56 : tile<f64>
    }
    %57 = reshape %53 : tile<32xf64> -> tile<32x1xf64>
    %58 = addf %49, %57  : tile<32x1xf64>
    %59 = broadcast %48 : tile<32x1xf64> -> tile<32x64xf64>
    %60 = mulf %22, %59  : tile<32x64xf64>
    %61 = mmaf %52, %32, %60 : tile<32x32xf64>, tile<32x64xf64>, tile<32x64xf64>
    continue %46, %58, %61, %33 : tile<32x1xf64>, tile<32x1xf64>, tile<32x64xf64>, token
  }
  %62 = broadcast %16 : tile<32x1xf64> -> tile<32x64xf64>
  %63 = divf %17, %62  : tile<32x64xf64>
  %64 = assume div_by<16>, %arg3 : tile<ptr<f64>>
  %65 = make_tensor_view %64, shape = [128, 64], strides = [64, 1] : tensor_view<128x64xf64, strides=[64,1]>
  %66 = make_partition_view %65 : partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xf64, strides=[64,1]>>
  %67 = store_view_tko weak %63, %66[%1, %2] token = %18 : tile<32x64xf64>, partition_view<tile=(32x64), padding_value = zero, tensor_view<128x64xf64, strides=[64,1]>>, tile<i32> -> token
  return
}
